import ClosetCore

/// PNG (ISO/IEC 15948, the W3C specification) to RGBA8: every colour type and bit depth,
/// palettes with `tRNS`, Adam7 interlace, every row filter; each chunk's CRC checked. Samples
/// below 8 bits are scaled to 0-255, 16-bit samples keep their high byte, and `tRNS` makes the
/// pixels of its colour (compared at full precision) transparent. Hostile input is an error:
/// dimensions are checked against `Bitmap.maximumPixels` before allocating, and the image data
/// may inflate to exactly the bytes its rows take, no more.
public enum PNGDecoder {
    public enum Failure: Error, Equatable, Sendable {
        case notPNG
        case truncated
        case badChunk(String)
        case unsupported(String)
        case tooLarge(width: Int, height: Int)
        case badData(String)

        public var message: String {
            switch self {
            case .notPNG: "not a PNG file"
            case .truncated: "a truncated PNG file"
            case .badChunk(let what): "a damaged PNG file (\(what))"
            case .unsupported(let what): "a PNG this build cannot read (\(what))"
            case .tooLarge(let width, let height):
                "a \(width)×\(height) picture is over the \(Bitmap.maximumPixels >> 20)-megapixel limit"
            case .badData(let what): "a damaged PNG file (\(what))"
            }
        }
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Adam7: each pass's first column and row, and its steps.
    static let passes = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    struct Header {
        var width: Int
        var height: Int
        var depth: Int
        var colour: Int
        var interlaced: Bool

        var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colour] ?? 0 }
        var bitsPerPixel: Int { channels * depth }
        /// Bytes between a pixel and the one its filter looks back to.
        var filterStep: Int { max(1, bitsPerPixel / 8) }
        func rowBytes(_ width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }
    }

    /// `checkingCRCs` false is for the fuzzer only: mutated chunks would otherwise stop at their
    /// CRC, before the inflater and the row decoder ever see them. `drawnWithin`: the largest
    /// the picture will be drawn, when known: its rows are then averaged by the largest power of
    /// two that still covers that size as they are unfiltered (`BoxReducer`), never held whole.
    public static func decode(
        _ data: [UInt8], checkingCRCs: Bool = true, drawnWithin box: (width: Int, height: Int)? = nil
    ) throws(Failure) -> Bitmap {
        let image = try read(data, checkingCRCs: checkingCRCs)
        return try pixels(
            image, factor: BoxReducer.factor(width: image.header.width, height: image.header.height, box: box))
    }

    /// The picture made at most `side` pixels on its longer side (its proportions kept), each
    /// pixel the area average of what it covers, its rows reduced as they are unfiltered
    /// (`AreaReducer`): never held at full size. A picture within `side` is decoded as it is.
    public static func decode(_ data: [UInt8], fittingIn side: Int, checkingCRCs: Bool = true) throws(Failure)
        -> Bitmap
    {
        let image = try read(data, checkingCRCs: checkingCRCs)
        let (width, height) = (image.header.width, image.header.height)
        let longer = max(width, height)
        guard side > 0, longer > side else { return try pixels(image) }
        return try pixels(image, areaSize: (max(1, width * side / longer), max(1, height * side / longer)))
    }

    /// Whether the bytes decode, without making their pixels: every chunk, the image data's
    /// checksums and size, and each row's filter. What else a row could get wrong is a palette
    /// index past its palette, so a palette picture is decoded whole (at a pixel's size).
    public static func check(_ data: [UInt8], checkingCRCs: Bool = true) throws(Failure) {
        let image = try read(data, checkingCRCs: checkingCRCs)
        let header = image.header
        if header.colour == 3 {
            _ = try pixels(image, factor: BoxReducer.factor(width: header.width, height: header.height, box: (1, 1)))
            return
        }
        try forEachRow(image, unfiltering: false) { _, _, _ throws(Failure) in }
    }

    /// A PNG's chunks read: its header, palette, transparency, its image data still deflated,
    /// and the exact size its rows inflate to.
    struct Image {
        var header: Header
        var palette: [UInt8]
        var transparency: [UInt8]?
        var compressed: [UInt8]
        var expected: Int
    }

    /// A pass of the picture (the whole picture when it is not interlaced): where its pixels
    /// go, and its rows' size.
    struct Pass {
        var x0: Int
        var y0: Int
        var dx: Int
        var dy: Int
        var columns: Int
        var rows: Int
        var rowBytes: Int
    }

    static func passList(_ header: Header) -> [Pass] {
        (header.interlaced ? passes : [(0, 0, 1, 1)]).compactMap { x0, y0, dx, dy in
            let (columns, rows) = passSize(header, x0, y0, dx, dy)
            guard columns > 0, rows > 0 else { return nil }
            return Pass(
                x0: x0, y0: y0, dx: dx, dy: dy, columns: columns, rows: rows, rowBytes: header.rowBytes(columns))
        }
    }

    /// Each row of each pass as it is inflated, unfiltered against the row before it, handed to
    /// `row`: the image data is never whole in memory. A row is copied out of the inflater's
    /// pieces (its matches read the bytes as filtered) and unfiltered there; `unfiltering` false
    /// only checks each row's filter. The stream's checksum is checked after its last row.
    static func forEachRow(
        _ image: Image, unfiltering: Bool = true,
        _ row: (_ pass: Pass, _ y: Int, _ row: UnsafeMutablePointer<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        let passes = passList(image.header)
        let step = image.header.filterStep
        let widest = passes.map(\.rowBytes).max() ?? 0
        // The row being filled (its filter byte first) and the one before it, unfiltered: two
        // buffers that trade places after each row rather than a row copied.
        var current = UnsafeMutablePointer<UInt8>.allocate(capacity: widest + 1)
        var before = UnsafeMutablePointer<UInt8>.allocate(capacity: widest + 1)
        defer {
            current.deallocate()
            before.deallocate()
        }
        var (passNumber, y, filled, hasPrevious) = (0, 0, 0, false)
        var failure: Failure?
        let total: Int
        do {
            total = try Inflate.zlib(image.compressed, limit: image.expected) { piece in
                guard let source = piece.baseAddress else { return true }
                var at = 0
                while at < piece.count, passNumber < passes.count {
                    let pass = passes[passNumber]
                    let part = min(1 + pass.rowBytes - filled, piece.count - at)
                    (current + filled).update(from: source + at, count: part)
                    filled += part
                    at += part
                    guard filled == 1 + pass.rowBytes else { continue }
                    do throws(Failure) {
                        if unfiltering {
                            try unfilter(
                                current + 1, hasPrevious ? before + 1 : nil, count: pass.rowBytes, filter: current[0],
                                step: step)
                        } else if current[0] > 4 {
                            throw .badData("row filter \(current[0])")
                        }
                        try row(pass, y, current + 1)
                    } catch {
                        failure = error
                        return false
                    }
                    swap(&current, &before)
                    (filled, hasPrevious, y) = (0, true, y + 1)
                    if y == pass.rows { (passNumber, y, hasPrevious) = (passNumber + 1, 0, false) }
                }
                return true
            }
        } catch {
            if let failure { throw failure }
            throw .badData("its image data: \(error)")
        }
        guard total == image.expected else {
            throw .badData("its image data holds \(total) bytes, not \(image.expected)")
        }
    }

    static func read(_ data: [UInt8], checkingCRCs: Bool) throws(Failure) -> Image {
        guard data.count >= 8, Array(data[0..<8]) == signature else { throw .notPNG }
        var position = 8
        var header: Header?
        var palette: [UInt8] = []
        var transparency: [UInt8]?
        var compressed: [UInt8] = []
        var ended = false
        while !ended {
            guard data.count - position >= 12 else { throw .truncated }
            let length = Int(bigEndian(data, position, 4))
            let kind = Array(data[(position + 4)..<(position + 8)])
            guard length <= 0x7FFF_FFFF, data.count - position - 12 >= length else { throw .truncated }
            let body = (position + 8)..<(position + 8 + length)
            let stored = bigEndian(data, body.upperBound, 4)
            guard !checkingCRCs || Checksum.crc32(data[(position + 4)..<body.upperBound]) == UInt32(stored) else {
                throw .badChunk("chunk \(name(kind)) fails its CRC")
            }
            position = body.upperBound + 4
            switch name(kind) {
            case "IHDR":
                guard header == nil, length == 13 else { throw .badChunk("IHDR") }
                header = try readHeader(data, body.lowerBound)
            case "PLTE":
                guard header != nil, palette.isEmpty, length % 3 == 0, length > 0, length <= 768 else {
                    throw .badChunk("PLTE")
                }
                palette = Array(data[body])
            case "tRNS":
                guard let header, transparency == nil else { throw .badChunk("tRNS") }
                switch header.colour {
                case 0: guard length == 2 else { throw .badChunk("tRNS") }
                case 2: guard length == 6 else { throw .badChunk("tRNS") }
                case 3: guard length <= 256 else { throw .badChunk("tRNS") }
                default: throw .badChunk("tRNS in a picture with an alpha channel")
                }
                transparency = Array(data[body])
            case "IDAT":
                guard header != nil else { throw .badChunk("IDAT before IHDR") }
                compressed += data[body]
            case "IEND":
                ended = true
            default:
                // Ancillary chunks (lower-case first letter) are skipped; a critical one this
                // decoder does not know means the picture cannot be shown right.
                guard kind[0] & 0x20 != 0 else { throw .unsupported("critical chunk \(name(kind))") }
            }
        }
        guard let header else { throw .badChunk("no IHDR") }
        if header.colour == 3, palette.isEmpty { throw .badChunk("a palette picture without PLTE") }
        // What the rows take, pass by pass: the exact size the image data must inflate to.
        var expected = 0
        for (x0, y0, dx, dy) in header.interlaced ? passes : [(0, 0, 1, 1)] {
            let (columns, rows) = passSize(header, x0, y0, dx, dy)
            if columns > 0, rows > 0 { expected += rows * (1 + header.rowBytes(columns)) }
        }
        return Image(
            header: header, palette: palette, transparency: transparency, compressed: compressed, expected: expected)
    }

    static func name(_ kind: [UInt8]) -> String { String(decoding: kind, as: UTF8.self) }

    static func bigEndian(_ data: [UInt8], _ at: Int, _ count: Int) -> UInt32 {
        (at..<(at + count)).reduce(UInt32(0)) { $0 << 8 | UInt32(data[$1]) }
    }

    static func readHeader(_ data: [UInt8], _ at: Int) throws(Failure) -> Header {
        let width = Int(bigEndian(data, at, 4))
        let height = Int(bigEndian(data, at + 4, 4))
        let (depth, colour) = (Int(data[at + 8]), Int(data[at + 9]))
        guard data[at + 10] == 0, data[at + 11] == 0 else { throw .unsupported("compression or filter method") }
        guard data[at + 12] <= 1 else { throw .unsupported("interlace method \(data[at + 12])") }
        let depths = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let allowed = depths[colour], allowed.contains(depth) else {
            throw .unsupported("colour type \(colour) with bit depth \(depth)")
        }
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else { throw .badChunk("IHDR size") }
        guard width <= Bitmap.maximumPixels, height <= Bitmap.maximumPixels / width else {
            throw .tooLarge(width: width, height: height)
        }
        return Header(width: width, height: height, depth: depth, colour: colour, interlaced: data[at + 12] == 1)
    }

    static func passSize(_ header: Header, _ x0: Int, _ y0: Int, _ dx: Int, _ dy: Int) -> (Int, Int) {
        ((header.width - x0 + dx - 1) / dx, (header.height - y0 + dy - 1) / dy)
    }

    /// Each pass's rows as they are inflated and unfiltered, their pixels written into place, or,
    /// reduced by `factor`, through a `BoxReducer`, or made `areaSize` through an `AreaReducer`.
    static func pixels(_ image: Image, factor: Int = 1, areaSize: (width: Int, height: Int)? = nil) throws(Failure)
        -> Bitmap
    {
        let header = image.header
        let key = TransparentKey(image.transparency, colour: header.colour)
        // A picture reduced row by row needs its rows in order: not interlaced.
        let reduced = factor > 1 || areaSize != nil
        // Grey or RGB without a transparent colour: every alpha is 255.
        let opaque = (header.colour == 0 || header.colour == 2) && key.samples == nil
        let streaming = reduced && !header.interlaced
        // Made only when used: a reducer holds its whole reduced picture.
        var box =
            areaSize == nil && factor > 1 ? BoxReducer(width: header.width, height: header.height, factor: factor) : nil
        var area = areaSize.map {
            AreaReducer(width: header.width, height: header.height, newWidth: $0.width, newHeight: $0.height)
        }
        if streaming, let area, header.width * header.height >= RowHandoff.fewestPixels {
            return try reducedOnTwoThreads(image, area, key: key, opaque: opaque)
        }
        var pixels = [UInt8](repeating: 0, count: streaming ? header.width * 4 : header.width * header.height * 4)
        try pixels.withUnsafeMutableBufferPointer { (pixels) throws(Failure) in
            // Not empty: a picture has a pixel.
            guard let target = pixels.baseAddress else { return }
            try forEachRow(image) { (pass, y, row) throws(Failure) in
                let line = streaming ? 0 : (pass.y0 + y * pass.dy) * header.width * 4
                try place(
                    row, header, into: target + line, x0: pass.x0, dx: pass.dx, columns: pass.columns,
                    palette: image.palette, key: key)
                if streaming {
                    if area != nil { area?.add(target, opaque: opaque) } else { box?.add(target) }
                }
            }
        }
        if streaming, let reduced = area?.bitmap ?? box?.bitmap { return reduced }
        let whole = Bitmap(width: header.width, height: header.height, pixels: pixels)
        guard reduced else { return whole }
        whole.pixels.withUnsafeBufferPointer { rows in
            guard let first = rows.baseAddress else { return }
            for y in 0..<header.height {
                if area != nil {
                    area?.add(first + y * header.width * 4, opaque: opaque)
                } else {
                    box?.add(first + y * header.width * 4)
                }
            }
        }
        return area?.bitmap ?? box?.bitmap ?? whole
    }

    /// `pixels` made smaller through `reducer` on a second thread (`RowHandoff`): each row is
    /// placed in the handoff's next buffer here and added to the reducer there.
    static func reducedOnTwoThreads(_ image: Image, _ reducer: AreaReducer, key: TransparentKey, opaque: Bool)
        throws(Failure) -> Bitmap
    {
        let header = image.header
        let reduction = Reduction(reducer)
        let handoff = RowHandoff(rowBytes: header.width * 4) { reduction.reducer.add($0, opaque: opaque) }
        do {
            try forEachRow(image) { (pass, _, row) throws(Failure) in
                try place(
                    row, header, into: handoff.nextRow(), x0: pass.x0, dx: pass.dx, columns: pass.columns,
                    palette: image.palette, key: key)
                handoff.hand()
            }
        } catch {
            handoff.finish()
            throw error
        }
        handoff.finish()
        return reduction.reducer.bitmap
    }

    /// The reducer the row thread adds to: a class, held by the closure it runs.
    final class Reduction {
        var reducer: AreaReducer
        init(_ reducer: AreaReducer) { self.reducer = reducer }
    }

    /// Undoes a row's filter where it lies; `previous` is the row above (nil: zeros).
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafeMutablePointer<UInt8>?, count: Int, filter: UInt8,
        step: Int
    ) throws(Failure) {
        switch filter {
        case 0: return
        case 1:
            // The usual steps with the left pixel held in registers: a byte added to the one just
            // written in memory waits on that store, byte after byte.
            if step == 3 {
                var (r, g, b) = (row[0], row[1], row[2])
                var i = 3
                while i + 3 <= count {
                    r &+= row[i]
                    g &+= row[i + 1]
                    b &+= row[i + 2]
                    (row[i], row[i + 1], row[i + 2]) = (r, g, b)
                    i += 3
                }
            } else if step == 4 {
                var (r, g, b, a) = (row[0], row[1], row[2], row[3])
                var i = 4
                while i + 4 <= count {
                    r &+= row[i]
                    g &+= row[i + 1]
                    b &+= row[i + 2]
                    a &+= row[i + 3]
                    (row[i], row[i + 1], row[i + 2], row[i + 3]) = (r, g, b, a)
                    i += 4
                }
            } else {
                for i in step..<max(step, count) { row[i] &+= row[i - step] }
            }
        case 2:
            guard let previous else { return }
            for i in 0..<count { row[i] &+= previous[i] }
        case 3:
            for i in 0..<count {
                let left = i >= step ? Int(row[i - step]) : 0
                let above = previous.map { Int($0[i]) } ?? 0
                row[i] &+= UInt8((left + above) / 2)
            }
        case 4:
            guard let previous else {
                // With no row above, Paeth picks the left neighbour.
                for i in step..<max(step, count) { row[i] &+= row[i - step] }
                return
            }
            for i in 0..<min(step, count) { row[i] &+= previous[i] }
            for i in step..<max(step, count) { row[i] &+= paeth(row[i - step], previous[i], previous[i - step]) }
        default: throw .badData("row filter \(filter)")
        }
    }

    /// The Paeth predictor (PNG, 9.4): of left, above and upper left, the one nearest to
    /// left + above − upper left.
    @inline(__always)
    static func paeth(_ left: UInt8, _ above: UInt8, _ upperLeft: UInt8) -> UInt8 {
        let (a, b, c) = (Int(left), Int(above), Int(upperLeft))
        let p = a + b - c
        let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
        return pa <= pb && pa <= pc ? left : pb <= pc ? above : upperLeft
    }

    /// `tRNS`: for a grey or RGB picture the one colour (at full precision) that is
    /// transparent, for a palette picture each entry's alpha (255 past its end).
    struct TransparentKey {
        var samples: (Int, Int, Int)?
        var paletteAlpha: [UInt8] = []

        init(_ bytes: [UInt8]?, colour: Int) {
            if colour == 3 { paletteAlpha = bytes ?? [] }
            guard let bytes, colour == 0 || colour == 2 else { return }
            let values = stride(from: 0, to: bytes.count - 1, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
            samples =
                colour == 0 ? (values.first ?? -1, -1, -1) : values.count == 3 ? (values[0], values[1], values[2]) : nil
        }
    }

    /// One unfiltered row's samples as RGBA pixels at columns x0, x0 + dx, ... of the row `out`
    /// begins.
    static func place(
        _ row: UnsafeMutablePointer<UInt8>, _ header: Header, into out: UnsafeMutablePointer<UInt8>, x0: Int, dx: Int,
        columns: Int, palette: [UInt8], key: TransparentKey
    ) throws(Failure) {
        let depth = header.depth
        // The usual pictures, 8-bit RGBA and RGB, without a per-sample switch.
        if depth == 8, header.colour == 6 {
            for column in 0..<columns {
                let at = (x0 + column * dx) * 4
                for channel in 0..<4 { out[at + channel] = row[column * 4 + channel] }
            }
            return
        }
        if depth == 8, header.colour == 2, key.samples == nil {
            if dx == 1, x0 == 0, columns > 1 {
                // Four bytes a pixel, the fourth (the next pixel's red) made alpha 255; the last
                // pixel by bytes (its fourth byte would be past the row).
                let (from, to) = (UnsafeRawPointer(row), UnsafeMutableRawPointer(out))
                for column in 0..<columns - 1 {
                    let pixel = UInt32(littleEndian: from.loadUnaligned(fromByteOffset: column * 3, as: UInt32.self))
                    to.storeBytes(of: (pixel | 0xFF00_0000).littleEndian, toByteOffset: column * 4, as: UInt32.self)
                }
                let last = columns - 1
                (out[last * 4], out[last * 4 + 1], out[last * 4 + 2]) = (
                    row[last * 3], row[last * 3 + 1], row[last * 3 + 2]
                )
                out[last * 4 + 3] = 255
                return
            }
            for column in 0..<columns {
                let at = (x0 + column * dx) * 4
                out[at] = row[column * 3]
                out[at + 1] = row[column * 3 + 1]
                out[at + 2] = row[column * 3 + 2]
                out[at + 3] = 255
            }
            return
        }
        let maximum = (1 << depth) - 1
        func sample(_ index: Int) -> Int {
            switch depth {
            case 16: return Int(row[index * 2]) << 8 | Int(row[index * 2 + 1])
            case 8: return Int(row[index])
            default:
                let bit = index * depth
                return Int(row[bit / 8] >> UInt8(8 - depth - bit % 8)) & maximum
            }
        }
        func eight(_ value: Int) -> UInt8 { UInt8(depth == 16 ? value >> 8 : value * 255 / maximum) }
        let channels = header.channels
        for column in 0..<columns {
            let at = (x0 + column * dx) * 4
            let first = column * channels
            switch header.colour {
            case 3:
                let index = sample(first)
                guard index * 3 + 2 < palette.count else { throw .badData("palette index \(index) past its palette") }
                out[at] = palette[index * 3]
                out[at + 1] = palette[index * 3 + 1]
                out[at + 2] = palette[index * 3 + 2]
                out[at + 3] = index < key.paletteAlpha.count ? key.paletteAlpha[index] : 255
            case 0, 4:
                let gray = sample(first)
                let value = eight(gray)
                (out[at], out[at + 1], out[at + 2]) = (value, value, value)
                if header.colour == 4 {
                    out[at + 3] = eight(sample(first + 1))
                } else {
                    out[at + 3] = key.samples?.0 == gray ? 0 : 255
                }
            default:
                let (r, g, b) = (sample(first), sample(first + 1), sample(first + 2))
                (out[at], out[at + 1], out[at + 2]) = (eight(r), eight(g), eight(b))
                if header.colour == 6 {
                    out[at + 3] = eight(sample(first + 3))
                } else if let samples = key.samples {
                    out[at + 3] = samples == (r, g, b) ? 0 : 255
                } else {
                    out[at + 3] = 255
                }
            }
        }
    }
}
