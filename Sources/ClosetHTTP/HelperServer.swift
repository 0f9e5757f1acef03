import ClosetCore
import ClosetNetwork
import Foundation

/// The network helper's loop: frames in on standard input, frames out on standard output,
/// one live transport for the whole session. Ends when the shell closes the socket.
package enum HelperServer {
    public static func run(input: Int32 = 0, output: Int32 = 1) -> Int32 {
        let reader = FrameChannel(fd: input)
        let writer = FrameChannel(fd: output)
        let writing = NSLock()
        let watch = MemoryWatch()
        var transport: URLSessionTransport?
        while true {
            let frame: Data
            do {
                frame = try reader.read(deadline: nil)
            } catch {
                return 0
            }
            guard let request = WireFormat.decodeRequest(frame) else {
                FileHandle.standardError.write(Data("closet-http: a request frame it cannot read\n".utf8))
                return 2
            }
            // The session's timeout is set once; a request's own timeout is set on it too.
            let active = transport ?? URLSessionTransport(timeoutSeconds: request.timeoutSeconds)
            transport = active
            let limit = memoryLimit(for: request)
            watch.begin(limit: limit) {
                let result = ExchangeResult.failure(
                    .givenUp,
                    "the answer grew past what the network helper may hold (\(ByteSize.format(limit)), after decompression); it was not read to its end"
                )
                writing.withLock { _ = try? writer.write(WireFormat.encode(result)) }
            }
            var result = active.perform(request)
            // The watch answered this request and ends the helper: wait for it, so the answer is
            // written before the process goes.
            guard watch.end() else { while true { sleep(60) } }
            // URLSession may still be inflating a body it was told to give up: the helper ends after
            // answering, and holds none of it (the shell starts a new helper for its next request).
            let ending = active.gaveUpABody
            if ending, case .failure(_, let detail) = result { result = .failure(.givenUp, detail) }
            do {
                try writing.withLock { try writer.write(WireFormat.encode(result)) }
            } catch {
                return 0
            }
            if ending { return 0 }
        }
    }

    /// How much the helper may hold while a request runs: its body's bound several times over
    /// (URLSession's buffers and the copies a body goes through), and never less than 128 MB.
    static func memoryLimit(for request: PreparedRequest) -> Int {
        let (bound, overflow) = request.maximumResponseBytes.multipliedReportingOverflow(by: 5)
        return max(128 << 20, overflow ? Int.max : bound)
    }
}
