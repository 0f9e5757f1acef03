import Foundation

/// The frames the shell and the network helper exchange over a socket: a 4-byte
/// little-endian length, then the fields. Strings and byte runs are length-prefixed.
package enum WireFormat {
    package static let maximumFrame = 256 << 20

    public static func encode(_ request: PreparedRequest) -> Data {
        var out = Writer()
        out.string(request.method)
        out.string(request.url)
        out.string(request.displayURL)
        out.headers(request.headers)
        out.byte(request.body == nil ? 0 : 1)
        out.bytes(request.body ?? Data())
        out.u32(UInt32(clamping: request.timeoutSeconds))
        out.u32(UInt32(clamping: request.maximumResponseBytes))
        return out.framed()
    }

    package static func decodeRequest(_ frame: Data) -> PreparedRequest? {
        var input = Reader(frame)
        guard let method = input.string(), let url = input.string(), let display = input.string(),
            let headers = input.headers(), let hasBody = input.byte(), let body = input.bytes(),
            let timeout = input.u32(), let maximum = input.u32(), input.atEnd
        else { return nil }
        return PreparedRequest(
            method: method, url: url, displayURL: display, headers: headers, body: hasBody == 1 ? body : nil,
            timeoutSeconds: Int(timeout), maximumResponseBytes: Int(maximum))
    }

    public static func encode(_ result: ExchangeResult) -> Data {
        var out = Writer()
        switch result {
        case .response(let response):
            out.byte(0)
            out.u32(UInt32(clamping: response.status))
            out.headers(response.headers)
            out.bytes(response.body)
        case .failure(let failure, let detail):
            out.byte(failure.rawValue)
            out.string(detail)
        }
        return out.framed()
    }

    package static func decodeResult(_ frame: Data) -> ExchangeResult? {
        var input = Reader(frame)
        guard let kind = input.byte() else { return nil }
        if kind == 0 {
            guard let status = input.u32(), let headers = input.headers(), let body = input.bytes(), input.atEnd else {
                return nil
            }
            return .response(HTTPResponse(status: Int(status), headers: headers, body: body))
        }
        guard let failure = ExchangeFailure(rawValue: kind), let detail = input.string(), input.atEnd else {
            return nil
        }
        return .failure(failure, detail)
    }

    struct Writer {
        var data = Data()
        mutating func byte(_ value: UInt8) { data.append(value) }
        mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        mutating func bytes(_ value: Data) {
            u32(UInt32(value.count))
            data.append(value)
        }
        mutating func string(_ value: String) { bytes(Data(value.utf8)) }
        mutating func headers(_ headers: [HTTPHeader]) {
            u32(UInt32(headers.count))
            for header in headers {
                string(header.name)
                string(header.value)
                byte(header.isSecret ? 1 : 0)
            }
        }
        func framed() -> Data {
            var frame = Data()
            withUnsafeBytes(of: UInt32(data.count).littleEndian) { frame.append(contentsOf: $0) }
            frame.append(data)
            return frame
        }
    }

    struct Reader {
        let data: [UInt8]
        var position = 0
        init(_ data: Data) { self.data = [UInt8](data) }
        var atEnd: Bool { position == data.count }
        mutating func byte() -> UInt8? {
            guard position < data.count else { return nil }
            defer { position += 1 }
            return data[position]
        }
        mutating func u32() -> UInt32? {
            guard position + 4 <= data.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 { value |= UInt32(data[position + offset]) << (8 * offset) }
            position += 4
            return value
        }
        mutating func bytes() -> Data? {
            guard let count = u32().map(Int.init), position + count <= data.count else { return nil }
            defer { position += count }
            return Data(data[position..<position + count])
        }
        mutating func string() -> String? { bytes().flatMap { String(data: $0, encoding: .utf8) } }
        mutating func headers() -> [HTTPHeader]? {
            guard let count = u32(), count < 10_000 else { return nil }
            var headers: [HTTPHeader] = []
            for _ in 0..<count {
                guard let name = string(), let value = string(), let secret = byte() else { return nil }
                headers.append(HTTPHeader(name, value, isSecret: secret == 1))
            }
            return headers
        }
    }
}
