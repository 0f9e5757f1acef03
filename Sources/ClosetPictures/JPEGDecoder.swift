import ClosetCore

/// JPEG (ITU-T T.81, JFIF) to RGBA8: baseline and progressive Huffman coding, any sampling
/// factors (4:4:4, 4:2:2, 4:2:0, 4:4:0, grayscale), restart markers, the EXIF orientation
/// applied. Chroma is upsampled as libjpeg-turbo's `djpeg` does by default (its "fancy"
/// triangle filter for 2:1), and colours converted with libjpeg's fixed-point constants, so a
/// picture decodes within a step or two of the reference tool.
///
/// Refused with a one-line reason: arithmetic coding, lossless and hierarchical JPEG, 12-bit
/// samples, CMYK and YCCK. Hostile input is an error, never a trap or a hang: the size is
/// checked against `Bitmap.maximumPixels` before anything is allocated, every table and index is
/// checked before use, and entropy-coded data that ends early decodes as zeros.
public enum JPEGDecoder {
    public enum Failure: Error, Equatable, Sendable {
        case notJPEG
        case truncated
        case badData(String)
        case unsupported(String)
        case tooLarge(width: Int, height: Int)

        public var message: String {
            switch self {
            case .notJPEG: "not a JPEG file"
            case .truncated: "a truncated JPEG file"
            case .badData(let what): "a damaged JPEG file (\(what))"
            case .unsupported(let what): "a JPEG this build cannot read (\(what))"
            case .tooLarge(let width, let height):
                "a \(width)×\(height) picture is over the \(Bitmap.maximumPixels >> 20)-megapixel limit"
            }
        }
    }

    /// `maximumPixels` below the default is for the fuzzer, whose inputs should not spend a
    /// second decoding 64 megapixels of nothing.
    ///
    /// `drawnWithin`: the largest the picture will be drawn (after its orientation), when it is
    /// known: the picture is then decoded at 1/2, 1/4 or 1/8 of its size inside the transform
    /// (as `djpeg -scale` does: each block's samples the box average of its full transform, the
    /// DC alone at 1/8), the smallest of those still at least the drawn size, so a thumbnail of
    /// a large photo never has a full-size buffer. Baseline pictures are transformed block by
    /// block as they are read; progressive ones keep their coefficients until the last scan.
    public static func decode(
        _ data: [UInt8], maximumPixels: Int = Bitmap.maximumPixels, drawnWithin box: (width: Int, height: Int)? = nil
    ) throws(Failure) -> Bitmap {
        // Decoded at an eighth already (its check, a thumbnail), and drawn no larger than that.
        if let box, let kept = EighthScaleDecodes.shared.find(data), kept.width <= maximumPixels / kept.height,
            blockSide(width: kept.width, height: kept.height, turned: kept.turned, box: box) == 1
        {
            return kept.bitmap
        }
        var decoder = try Parser(data)
        decoder.maximumPixels = maximumPixels
        decoder.box = box
        try decoder.run()
        let bitmap = try decoder.bitmap()
        if decoder.blockSide == 1 {
            EighthScaleDecodes.shared.keep(
                .init(
                    bytes: data, width: decoder.width, height: decoder.height, turned: decoder.orientation >= 5,
                    bitmap: bitmap))
        }
        return bitmap
    }

    /// Decoded at `side`/8 of its size whatever it is drawn at (the reference tests' `-scale`).
    static func decode(_ data: [UInt8], blockSide side: Int) throws(Failure) -> Bitmap {
        var decoder = try Parser(data)
        decoder.requestedSide = side
        try decoder.run()
        return try decoder.bitmap()
    }

    /// Samples per block side for a picture of `width × height` (as its orientation turns it)
    /// drawn no larger than `box`: 8 (full size), or 4, 2, 1 when that still covers the drawn size.
    static func blockSide(width: Int, height: Int, turned: Bool, box: (width: Int, height: Int)?) -> Int {
        guard let box, box.width > 0, box.height > 0 else { return 8 }
        let (shownWidth, shownHeight) = turned ? (height, width) : (width, height)
        // The drawn size's share of the picture's: what a reduction must not go below.
        let fit = min(Double(box.width) / Double(shownWidth), Double(box.height) / Double(shownHeight))
        var side = 8
        while side > 1, Double(side / 2) / 8 >= fit { side /= 2 }
        return side
    }

    /// Where the zig-zag order's k-th coefficient sits in a block, row by row.
    static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14,
        21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53,
        60, 61, 54, 47, 55, 62, 63,
        // Past the end, for corrupt runs that overshoot: they land on a harmless slot.
        63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63,
    ]

    struct Component {
        var id: UInt8
        var horizontal: Int
        var vertical: Int
        var quantization: Int
        /// Blocks across and down, padded to whole MCUs.
        var blocksPerLine = 0
        var blocksPerColumn = 0
        /// The component's own size in samples (before padding).
        var width = 0
        var height = 0
        /// Samples per block side it is transformed to (8 at full size; more than the picture's
        /// side when that spares upsampling, as libjpeg's scaling does), and its size so.
        var side = 8
        var scaledWidth = 0
        var scaledHeight = 0
        /// Progressive pictures' coefficients, kept until the last scan.
        var coefficients: [Int16] = []
        /// Its samples, `blocksPerLine * side` across, padded to whole blocks.
        var samples: Samples?
        var dcTable = 0
        var acTable = 0
        var prediction = 0
    }

    /// A component's samples: memory of its own, written through a pointer by a scan's loop.
    final class Samples {
        let buffer: UnsafeMutableBufferPointer<UInt8>

        init(count: Int, value: UInt8) {
            buffer = .allocate(capacity: count)
            buffer.initialize(repeating: value)
        }

        deinit { buffer.deallocate() }
    }

    /// What a baseline scan's loop needs of one component, as plain values and pointers (valid
    /// while the scan runs: the parser holds the tables and samples they point into).
    struct ScanUnit {
        let dc: HuffmanTable.Lookup
        let ac: HuffmanTable.Lookup
        let table: UnsafePointer<Float>
        let out: UnsafeMutableBufferPointer<UInt8>
        let side: Int
        let stride: Int
        let horizontal: Int
        let vertical: Int
    }

    struct Parser {
        let data: [UInt8]
        var position = 2
        var quantization = [[UInt16]](repeating: [], count: 4)
        var dcTables = [HuffmanTable?](repeating: nil, count: 4)
        var acTables = [HuffmanTable?](repeating: nil, count: 4)
        var components: [Component] = []
        var width = 0
        var height = 0
        var progressive = false
        var restartInterval = 0
        var maxHorizontal = 1
        var maxVertical = 1
        var mcusPerLine = 0
        var mcusPerColumn = 0
        var adobeTransform: Int?
        var orientation = 1
        var sawFrame = false
        var sawScan = false
        var eobRun = 0
        var maximumPixels = Bitmap.maximumPixels
        var box: (width: Int, height: Int)?
        var requestedSide: Int?
        /// Samples per block side of the picture's widest components (8: full size).
        var blockSide = 8
        /// The decoded picture's size: `width × height` scaled by `blockSide / 8`, rounded up.
        var outputWidth = 0
        var outputHeight = 0
        /// A baseline block's coefficients, transformed as soon as it is read.
        var scratch = [Int16](repeating: 0, count: 64)

        init(_ data: [UInt8]) throws(Failure) {
            guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { throw .notJPEG }
            self.data = data
        }

        mutating func run() throws(Failure) {
            while true {
                let marker = try nextMarker()
                switch marker {
                case 0xD9:
                    guard sawScan else { throw .badData("it ends before any picture data") }
                    return
                case 0xC0, 0xC1, 0xC2:
                    try readFrame(progressive: marker == 0xC2)
                case 0xC3, 0xC5, 0xC6, 0xC7:
                    throw .unsupported(marker == 0xC3 ? "lossless coding" : "hierarchical coding")
                case 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
                    throw .unsupported("arithmetic coding")
                case 0xC4: try readHuffmanTables()
                case 0xDB: try readQuantizationTables()
                case 0xDD:
                    let segment = Array(try readSegment())
                    guard segment.count == 2 else { throw .badData("DRI") }
                    restartInterval = Int(segment[0]) << 8 | Int(segment[1])
                case 0xDA:
                    try readScan()
                    sawScan = true
                case 0xE1: readExif(try readSegment())
                case 0xEE: readAdobe(try readSegment())
                case 0xD0...0xD7, 0x01:
                    continue  // stray restart markers and TEM carry no segment
                default:
                    _ = try readSegment()  // APPn, COM, DNL and anything else a reader may skip
                }
            }
        }

        /// The next marker's code, after any fill bytes; garbage between segments is skipped
        /// as libjpeg does.
        mutating func nextMarker() throws(Failure) -> UInt8 {
            while position < data.count {
                if data[position] == 0xFF {
                    var at = position + 1
                    while at < data.count, data[at] == 0xFF { at += 1 }
                    guard at < data.count else { break }
                    if data[at] != 0 {
                        position = at + 1
                        return data[at]
                    }
                    position = at + 1
                } else {
                    position += 1
                }
            }
            // A file that stops after its last scan is read as ended, as viewers do.
            if sawScan { return 0xD9 }
            throw .truncated
        }

        mutating func readSegment() throws(Failure) -> ArraySlice<UInt8> {
            guard position + 2 <= data.count else { throw .truncated }
            let length = Int(data[position]) << 8 | Int(data[position + 1])
            guard length >= 2 else { throw .badData("a segment of length \(length)") }
            guard position + length <= data.count else { throw .truncated }
            defer { position += length }
            return data[(position + 2)..<(position + length)]
        }

        mutating func readQuantizationTables() throws(Failure) {
            var segment = try readSegment()
            while let first = segment.first {
                let (precision, index) = (Int(first >> 4), Int(first & 15))
                guard index < 4, precision <= 1 else { throw .badData("DQT") }
                let size = precision == 0 ? 64 : 128
                guard segment.count >= 1 + size else { throw .badData("DQT") }
                let body = Array(segment.dropFirst().prefix(size))
                var table = [UInt16](repeating: 0, count: 64)
                for k in 0..<64 {
                    table[zigzag[k]] =
                        precision == 0 ? UInt16(body[k]) : UInt16(body[2 * k]) << 8 | UInt16(body[2 * k + 1])
                }
                quantization[index] = table
                segment = segment.dropFirst(1 + size)
            }
        }

        mutating func readHuffmanTables() throws(Failure) {
            var segment = try readSegment()
            while let first = segment.first {
                let (kind, index) = (Int(first >> 4), Int(first & 15))
                guard kind <= 1, index < 4, segment.count >= 17 else { throw .badData("DHT") }
                let counts = Array(segment.dropFirst().prefix(16)).map(Int.init)
                let total = counts.reduce(0, +)
                guard total <= 256, segment.count >= 17 + total else { throw .badData("DHT") }
                let symbols = Array(segment.dropFirst(17).prefix(total))
                guard let table = HuffmanTable(counts: counts, symbols: symbols, forAC: kind == 1) else {
                    throw .badData("DHT codes")
                }
                if kind == 0 { dcTables[index] = table } else { acTables[index] = table }
                segment = segment.dropFirst(17 + total)
            }
        }

        mutating func readFrame(progressive: Bool) throws(Failure) {
            guard !sawFrame else { throw .badData("a second frame") }
            let segment = Array(try readSegment())
            guard segment.count >= 6 else { throw .badData("SOF") }
            guard segment[0] == 8 else { throw .unsupported("\(segment[0])-bit samples") }
            height = Int(segment[1]) << 8 | Int(segment[2])
            width = Int(segment[3]) << 8 | Int(segment[4])
            let count = Int(segment[5])
            guard height > 0 else { throw .unsupported("a height given after the picture (DNL)") }
            guard width > 0 else { throw .badData("a width of 0") }
            guard count == 1 || count == 3 else {
                throw .unsupported(count == 4 ? "CMYK colour" : "\(count) colour components")
            }
            guard segment.count == 6 + 3 * count else { throw .badData("SOF") }
            guard width <= maximumPixels / height else { throw .tooLarge(width: width, height: height) }
            for index in 0..<count {
                let at = 6 + 3 * index
                let (h, v, q) = (Int(segment[at + 1] >> 4), Int(segment[at + 1] & 15), Int(segment[at + 2]))
                guard (1...4).contains(h), (1...4).contains(v), q < 4 else { throw .badData("SOF component") }
                components.append(Component(id: segment[at], horizontal: h, vertical: v, quantization: q))
            }
            maxHorizontal = components.map(\.horizontal).max() ?? 1
            maxVertical = components.map(\.vertical).max() ?? 1
            mcusPerLine = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
            mcusPerColumn = (height + 8 * maxVertical - 1) / (8 * maxVertical)
            blockSide =
                requestedSide ?? JPEGDecoder.blockSide(width: width, height: height, turned: orientation >= 5, box: box)
            outputWidth = (width * blockSide + 7) / 8
            outputHeight = (height * blockSide + 7) / 8
            for index in components.indices {
                let h = components[index].horizontal
                let v = components[index].vertical
                // A subsampled component is transformed to more samples per block while that
                // still lands on the picture's grid (libjpeg's rule), so it needs no upsampling.
                var side = blockSide
                while side < 8, (maxHorizontal * blockSide) % (h * side * 2) == 0,
                    (maxVertical * blockSide) % (v * side * 2) == 0
                {
                    side *= 2
                }
                components[index].side = side
                components[index].width = (width * h + maxHorizontal - 1) / maxHorizontal
                components[index].height = (height * v + maxVertical - 1) / maxVertical
                components[index].scaledWidth = (width * h * side + maxHorizontal * 8 - 1) / (maxHorizontal * 8)
                components[index].scaledHeight = (height * v * side + maxVertical * 8 - 1) / (maxVertical * 8)
                components[index].blocksPerLine = mcusPerLine * h
                components[index].blocksPerColumn = mcusPerColumn * v
                let blocks = mcusPerLine * h * mcusPerColumn * v
                if progressive {
                    components[index].coefficients = [Int16](repeating: 0, count: blocks * 64)
                } else {
                    // A block no scan reaches is all zeros, whose transform is mid-grey.
                    components[index].samples = Samples(count: blocks * side * side, value: 128)
                }
            }
            self.progressive = progressive
            sawFrame = true
        }

        mutating func readScan() throws(Failure) {
            guard sawFrame else { throw .badData("a scan before the frame") }
            let segment = Array(try readSegment())
            guard let count = segment.first.map(Int.init), (1...4).contains(count), segment.count == 4 + 2 * count
            else { throw .badData("SOS") }
            var inScan: [Int] = []
            for index in 0..<count {
                let (id, tables) = (segment[1 + 2 * index], segment[2 + 2 * index])
                guard let component = components.firstIndex(where: { $0.id == id }), !inScan.contains(component) else {
                    throw .badData("a scan of an unknown component")
                }
                components[component].dcTable = Int(tables >> 4)
                components[component].acTable = Int(tables & 15)
                guard components[component].dcTable < 4, components[component].acTable < 4 else {
                    throw .badData("SOS tables")
                }
                inScan.append(component)
            }
            let start = Int(segment[1 + 2 * count])
            let end = Int(segment[2 + 2 * count])
            let (high, low) = (Int(segment[3 + 2 * count] >> 4), Int(segment[3 + 2 * count] & 15))
            if progressive {
                guard start <= end, end <= 63, (start == 0) == (end == 0), start == 0 || count == 1, low <= 13,
                    high <= 13
                else { throw .badData("a progressive scan's spectral selection") }
            } else {
                guard start == 0, end == 63, high == 0, low == 0 else { throw .badData("a baseline scan's parameters") }
            }
            for component in inScan {
                guard quantization[components[component].quantization].count == 64 else {
                    throw .badData("a component with no quantization table")
                }
                let needsDC = start == 0 && high == 0
                if needsDC, dcTables[components[component].dcTable] == nil {
                    throw .badData("a scan with no DC Huffman table")
                }
                if end > 0, acTables[components[component].acTable] == nil {
                    throw .badData("a scan with no AC Huffman table")
                }
                components[component].prediction = 0
            }
            var reader = BitReader(data: data, position: position)
            try decodeScan(&reader, inScan, start: start, end: end, high: high, low: low)
            position = reader.position
        }

        mutating func decodeScan(
            _ reader: inout BitReader, _ inScan: [Int], start: Int, end: Int, high: Int, low: Int
        ) throws(Failure) {
            if !progressive {
                try decodeBaselineScan(&reader, inScan)
                return
            }
            eobRun = 0
            let single = inScan.count == 1
            // A scan of one component walks its own blocks, not whole MCUs.
            let unitsAcross = single ? (components[inScan[0]].width + 7) / 8 : mcusPerLine
            let unitsDown = single ? (components[inScan[0]].height + 7) / 8 : mcusPerColumn
            var untilRestart = restartInterval
            for row in 0..<unitsDown {
                for column in 0..<unitsAcross {
                    if restartInterval > 0 {
                        if untilRestart == 0 {
                            reader.restart()
                            eobRun = 0
                            for component in inScan { components[component].prediction = 0 }
                            untilRestart = restartInterval
                        }
                        untilRestart -= 1
                    }
                    // No data left before the marker: the rest of this restart interval (or of
                    // the scan) stays as it is; an interval may legitimately end so, inside an
                    // end-of-band run that takes no bits.
                    if reader.exhausted {
                        if reader.atRestartMarker { continue }
                        return
                    }
                    if single {
                        try decodeBlock(&reader, inScan[0], row, column, start, end, high, low)
                    } else {
                        for component in inScan {
                            let (h, v) = (components[component].horizontal, components[component].vertical)
                            for y in 0..<v {
                                for x in 0..<h {
                                    try decodeBlock(
                                        &reader, component, row * v + y, column * h + x, start, end, high, low)
                                }
                            }
                        }
                    }
                }
            }
        }

        /// A baseline scan: each block decoded and transformed into its component's samples at
        /// once (no coefficients kept), through plain values and pointers only.
        mutating func decodeBaselineScan(_ reader: inout BitReader, _ inScan: [Int]) throws(Failure) {
            let single = inScan.count == 1
            var scanned: [(dc: HuffmanTable, ac: HuffmanTable, samples: Samples, component: Component)] = []
            // The tables as this scan starts (libjpeg latches them likewise), 64 per component.
            let tables = UnsafeMutablePointer<Float>.allocate(capacity: 64 * inScan.count)
            defer { tables.deallocate() }
            for index in inScan {
                let component = components[index]
                guard let dc = dcTables[component.dcTable], let ac = acTables[component.acTable],
                    let samples = component.samples
                else { throw .badData("tables") }
                for (at, value) in quantization[component.quantization].enumerated() {
                    (tables + 64 * scanned.count + at).initialize(to: Float(value))
                }
                scanned.append((dc, ac, samples, component))
            }
            // A scan of one component walks its own blocks, not whole MCUs.
            let unitsAcross = single ? (components[inScan[0]].width + 7) / 8 : mcusPerLine
            let unitsDown = single ? (components[inScan[0]].height + 7) / 8 : mcusPerColumn
            let restartInterval = restartInterval
            let block = UnsafeMutableBufferPointer<Int16>.allocate(capacity: 64)
            defer { block.deallocate() }
            // Where a block's nonzero coefficients are, for a reduced block's sparse transform.
            let positions = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
            defer { positions.deallocate() }
            // The tables and samples the units point into live as long as this scan.
            try withExtendedLifetime(scanned) { () throws(Failure) in
                do {
                    let units = scanned.enumerated().map { index, item in
                        ScanUnit(
                            dc: item.dc.lookup, ac: item.ac.lookup, table: UnsafePointer(tables + 64 * index),
                            out: item.samples.buffer, side: item.component.side,
                            stride: item.component.blocksPerLine * item.component.side,
                            horizontal: single ? 1 : item.component.horizontal,
                            vertical: single ? 1 : item.component.vertical)
                    }
                    var predictions = [Int](repeating: 0, count: units.count)
                    var untilRestart = restartInterval
                    for row in 0..<unitsDown {
                        for column in 0..<unitsAcross {
                            if restartInterval > 0 {
                                if untilRestart == 0 {
                                    reader.restart()
                                    for index in predictions.indices { predictions[index] = 0 }
                                    untilRestart = restartInterval
                                }
                                untilRestart -= 1
                            }
                            // As in `decodeScan`: no data left before the marker leaves the rest
                            // of this interval (or of the scan) as it is.
                            if reader.exhausted {
                                if reader.atRestartMarker { continue }
                                return
                            }
                            for index in units.indices {
                                let unit = units[index]
                                for y in 0..<unit.vertical {
                                    for x in 0..<unit.horizontal {
                                        try Self.decodeBaselineBlock(
                                            &reader, unit, block, positions, &predictions[index],
                                            blockRow: row * unit.vertical + y,
                                            blockColumn: column * unit.horizontal + x)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        @inline(__always)
        static func decodeBaselineBlock(
            _ reader: inout BitReader, _ unit: ScanUnit, _ block: UnsafeMutableBufferPointer<Int16>,
            _ positions: UnsafeMutablePointer<UInt8>, _ prediction: inout Int, blockRow: Int, blockColumn: Int
        ) throws(Failure) {
            let size = reader.decode(unit.dc)
            guard size <= 11 else { throw .badData("a DC difference of \(size) bits") }
            prediction &+= reader.extended(size)
            let at = blockRow * unit.side * unit.stride + blockColumn * unit.side
            if unit.side == 1 {
                // The DC alone: the AC coefficients are read past, never stored.
                try skipAC(&reader, unit.ac)
                block[0] = Int16(truncatingIfNeeded: prediction)
                InverseDCT.transform(
                    UnsafeBufferPointer(block), at: 0, table: unit.table, into: unit.out, at: at, stride: unit.stride,
                    side: 1)
                return
            }
            let sparse = unit.side < 8
            if !sparse { block.update(repeating: 0) }
            block[0] = Int16(truncatingIfNeeded: prediction)
            positions[0] = 0
            var count = 1
            try walkAC(&reader, unit.ac) { reader, k, size in
                let position = zigzag[k]
                block[position] = Int16(truncatingIfNeeded: reader.extended(size))
                positions[count] = UInt8(truncatingIfNeeded: position)
                count += 1
            }
            if sparse {
                InverseDCT.transformSparse(
                    block, positions: positions, count: count, table: unit.table, into: unit.out, at: at,
                    stride: unit.stride, side: unit.side)
            } else {
                InverseDCT.transform(
                    UnsafeBufferPointer(block), at: 0, table: unit.table, into: unit.out, at: at, stride: unit.stride)
            }
        }

        /// A block's AC coefficients read and dropped (at 1/8 only the DC is drawn), with the
        /// same checks as reading them.
        @inline(__always)
        static func skipAC(_ reader: inout BitReader, _ table: HuffmanTable.Lookup) throws(Failure) {
            typealias Entry = HuffmanTable.SkipEntry
            var k = 1
            while k < 64 {
                if reader.count < 16 { reader.fill() }
                let entry = table.skip[Int(reader.buffer &>> UInt64(64 - HuffmanTable.skipBits))]
                // Codes and values whole in the look, passed over in one shift, when every
                // coefficient they step over stays before the block's last place (the last one,
                // or one past it, ends the block or is an error: one step at a time then). A fill
                // leaves at least 16 bits (zeros past a marker): the look's are there.
                if entry != 0, k + Entry.advance(entry) < 64 {
                    let bits = Entry.bits(entry)
                    reader.buffer &<<= UInt64(bits)
                    reader.count -= bits
                    if Entry.ends(entry) { return }
                    k += Entry.advance(entry)
                    continue
                }
                // `walkAC`'s rule, one symbol.
                let symbol = reader.decode(table)
                reader.skip(symbol & 15)
                if symbol & 15 == 0 {
                    if symbol >> 4 != 15 { return }
                    k += 16
                    continue
                }
                k += symbol >> 4
                guard k < 64 else { throw .badData("a coefficient past the block's end") }
                k += 1
            }
        }

        /// A baseline block's AC coefficients (F.2.2.2): `take` is given each one's place in
        /// zig-zag order and the size of its value, and reads (or skips) the value's bits.
        @inline(__always)
        static func walkAC(
            _ reader: inout BitReader, _ table: HuffmanTable.Lookup, _ take: (inout BitReader, Int, Int) -> Void
        ) throws(Failure) {
            try walkAC(&reader, symbol: { $0.decode(table) }, take: take)
        }

        /// The same, `symbol` reading each run-and-size symbol.
        @inline(__always)
        static func walkAC(
            _ reader: inout BitReader, symbol next: (inout BitReader) -> Int, take: (inout BitReader, Int, Int) -> Void
        ) throws(Failure) {
            var k = 1
            while k < 64 {
                let symbol = next(&reader)
                let (run, size) = (symbol >> 4, symbol & 15)
                if size == 0 {
                    if run != 15 { break }
                    k += 16
                    continue
                }
                k += run
                guard k < 64 else { throw .badData("a coefficient past the block's end") }
                take(&reader, k, size)
                k += 1
            }
        }

        mutating func decodeBlock(
            _ reader: inout BitReader, _ index: Int, _ blockRow: Int, _ blockColumn: Int, _ start: Int, _ end: Int,
            _ high: Int, _ low: Int
        ) throws(Failure) {
            let dcTable = dcTables[components[index].dcTable]
            let acTable = acTables[components[index].acTable]
            var prediction = components[index].prediction
            var eobRun = eobRun
            defer {
                components[index].prediction = prediction
                self.eobRun = eobRun
            }
            let offset = (blockRow * components[index].blocksPerLine + blockColumn) * 64
            try components[index].coefficients.withUnsafeMutableBufferPointer { buffer throws(Failure) in
                let block = UnsafeMutableBufferPointer(rebasing: buffer[offset..<(offset + 64)])
                if start == 0 {
                    if high == 0 {
                        guard let dcTable else { throw .badData("tables") }
                        let size = reader.decode(dcTable)
                        guard size <= 11 else { throw .badData("a DC difference of \(size) bits") }
                        prediction &+= reader.extended(size)
                        block[0] = Int16(truncatingIfNeeded: prediction << low)
                    } else if reader.bit() == 1 {
                        block[0] |= Int16(truncatingIfNeeded: 1 << low)
                    }
                    return
                }
                guard let acTable else { throw .badData("tables") }
                if high == 0 {
                    try Self.firstAC(&reader, block, acTable, start, end, low, &eobRun)
                } else {
                    try Self.refineAC(&reader, block, acTable, start, end, low, &eobRun)
                }
            }
        }

        static func firstAC(
            _ reader: inout BitReader, _ block: UnsafeMutableBufferPointer<Int16>, _ table: HuffmanTable,
            _ start: Int, _ end: Int, _ low: Int, _ eobRun: inout Int
        ) throws(Failure) {
            if eobRun > 0 {
                eobRun -= 1
                return
            }
            var k = start
            while k <= end {
                let symbol = reader.decode(table)
                let (run, size) = (symbol >> 4, symbol & 15)
                if size == 0 {
                    if run < 15 {
                        eobRun = (1 << run) - 1
                        if run > 0 { eobRun += reader.bits(run) }
                        return
                    }
                    k += 16
                    continue
                }
                k += run
                guard k <= end else { throw .badData("a coefficient past the scan's band") }
                block[zigzag[k]] = Int16(truncatingIfNeeded: reader.extended(size) * (1 << low))
                k += 1
            }
        }

        /// A successive-approximation AC scan (G.1.2.3): one more bit of every coefficient
        /// already known, and the new ones that become ±1 in this bit.
        static func refineAC(
            _ reader: inout BitReader, _ block: UnsafeMutableBufferPointer<Int16>, _ table: HuffmanTable,
            _ start: Int, _ end: Int, _ low: Int, _ eobRun: inout Int
        ) throws(Failure) {
            let plus = Int16(truncatingIfNeeded: 1 << low)
            let minus = Int16(truncatingIfNeeded: -1 << low)
            func refine(_ at: Int) {
                let value = block[at]
                if reader.bit() == 1, value & plus == 0 { block[at] = value &+ (value >= 0 ? plus : minus) }
            }
            var k = start
            if eobRun == 0 {
                while k <= end {
                    let symbol = reader.decode(table)
                    var run = symbol >> 4
                    let size = symbol & 15
                    var value: Int16 = 0
                    if size != 0 {
                        guard size == 1 else { throw .badData("a refinement of \(size) bits") }
                        value = reader.bit() == 1 ? plus : minus
                    } else if run != 15 {
                        eobRun = 1 << run
                        if run > 0 { eobRun += reader.bits(run) }
                        break
                    }
                    while k <= end {
                        let at = zigzag[k]
                        if block[at] != 0 {
                            refine(at)
                        } else {
                            if run == 0 { break }
                            run -= 1
                        }
                        k += 1
                    }
                    if value != 0 {
                        guard k <= end else { throw .badData("a coefficient past the scan's band") }
                        block[zigzag[k]] = value
                    }
                    k += 1
                }
            }
            if eobRun > 0 {
                while k <= end {
                    let at = zigzag[k]
                    if block[at] != 0 { refine(at) }
                    k += 1
                }
                eobRun -= 1
            }
        }

        // MARK: segments a picture's look depends on

        /// The orientation tag (0x0112) of the EXIF data's first IFD.
        mutating func readExif(_ segment: ArraySlice<UInt8>) {
            if let value = ExifOrientation.read(segment) { orientation = value }
        }

        /// Adobe's APP14: whether three components are YCbCr (1) or RGB (0).
        mutating func readAdobe(_ segment: ArraySlice<UInt8>) {
            let bytes = Array(segment)
            guard bytes.count >= 12, bytes[0..<5].elementsEqual([0x41, 0x64, 0x6F, 0x62, 0x65]) else { return }
            adobeTransform = Int(bytes[11])
        }

        // MARK: pixels

        func bitmap() throws(Failure) -> Bitmap {
            guard sawFrame else { throw .badData("no frame") }
            let full = components.map { component in
                let samples = progressive ? plane(component) : component.samples ?? Samples(count: 0, value: 0)
                return upsample(UnsafeBufferPointer(samples.buffer), component)
            }
            let (width, height) = (outputWidth, outputHeight)
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            let rgb =
                components.count == 3
                && (adobeTransform == 0 || components.map(\.id) == [0x52, 0x47, 0x42])
            let count = width * height
            pixels.withUnsafeMutableBufferPointer { out in
                full[0].withUnsafeBufferPointer { first in
                    if components.count == 1 {
                        for i in 0..<count {
                            (out[4 * i], out[4 * i + 1], out[4 * i + 2]) = (first[i], first[i], first[i])
                        }
                        return
                    }
                    full[1].withUnsafeBufferPointer { second in
                        full[2].withUnsafeBufferPointer { third in
                            if rgb {
                                for i in 0..<count {
                                    (out[4 * i], out[4 * i + 1], out[4 * i + 2]) = (first[i], second[i], third[i])
                                }
                                return
                            }
                            // libjpeg's constants (16-bit fixed point, rounded), so colours match djpeg.
                            for i in 0..<count {
                                let y = Int(first[i])
                                let cb = Int(second[i]) - 128
                                let cr = Int(third[i]) - 128
                                out[4 * i] = clamp(y + ((91881 * cr + 32768) >> 16))
                                out[4 * i + 1] = clamp(y + ((-22554 * cb - 46802 * cr + 32768) >> 16))
                                out[4 * i + 2] = clamp(y + ((116130 * cb + 32768) >> 16))
                            }
                        }
                    }
                }
            }
            return Bitmap(width: width, height: height, pixels: pixels).oriented(orientation)
        }

        /// A progressive component's samples: every block dequantized and inverse-transformed
        /// to its side, at the component's padded size.
        func plane(_ component: Component) -> Samples {
            let side = component.side
            let stride = component.blocksPerLine * side
            let out = Samples(count: stride * component.blocksPerColumn * side, value: 0)
            let table = UnsafeMutablePointer<Float>.allocate(capacity: 64)
            defer { table.deallocate() }
            // Zeros where a component no scan reached has no table (its coefficients are zeros).
            table.initialize(repeating: 0, count: 64)
            for (at, value) in quantization[component.quantization].prefix(64).enumerated() {
                (table + at).initialize(to: Float(value))
            }
            do {
                component.coefficients.withUnsafeBufferPointer { coefficients in
                    for row in 0..<component.blocksPerColumn {
                        for column in 0..<component.blocksPerLine {
                            let block = (row * component.blocksPerLine + column) * 64
                            InverseDCT.transform(
                                coefficients, at: block, table: table, into: out.buffer,
                                at: row * side * stride + column * side, stride: stride, side: side)
                        }
                    }
                }
            }
            return out
        }

        /// A component's samples at the decoded picture's size: the 2:1 cases with libjpeg's
        /// triangle filter (not at 1/8, where libjpeg does not filter either), others by
        /// repeating samples.
        func upsample(_ plane: UnsafeBufferPointer<UInt8>, _ component: Component) -> [UInt8] {
            let stride = component.blocksPerLine * component.side
            // The picture's samples per block over the component's, across and down.
            let (wide, high) = (maxHorizontal * blockSide, maxVertical * blockSide)
            let (ownWide, ownHigh) = (component.horizontal * component.side, component.vertical * component.side)
            let (across, down) = (wide / ownWide, high / ownHigh)
            let exact = wide % ownWide == 0 && high % ownHigh == 0
            let (width, height) = (outputWidth, outputHeight)
            var out = [UInt8](repeating: 0, count: width * height)
            let (sourceWidth, sourceHeight) = (component.scaledWidth, component.scaledHeight)
            let filtered = blockSide > 1
            do {
                out.withUnsafeMutableBufferPointer { out in
                    // libjpeg-turbo filters 2:1 across only when a component is over two samples wide.
                    guard exact, filtered || (across == 1 && down == 1), across <= 2, down <= 2,
                        across == 1 || sourceWidth > 2
                    else {
                        for y in 0..<height {
                            let sourceY = min(y * ownHigh / high, sourceHeight - 1)
                            for x in 0..<width {
                                out[y * width + x] = plane[sourceY * stride + min(x * ownWide / wide, sourceWidth - 1)]
                            }
                        }
                        return
                    }
                    // A component at the picture's own resolution (every one at 1/8): its rows as
                    // they are.
                    if across == 1, down == 1, let source = plane.baseAddress, let into = out.baseAddress {
                        for y in 0..<height { (into + y * width).update(from: source + y * stride, count: width) }
                        return
                    }
                    // Rows in pairs first (3/4 the near row, 1/4 the far one, the edges repeating
                    // their last row), as sums of four; then columns likewise. libjpeg's biases.
                    let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: sourceWidth)
                    defer { sums.deallocate() }
                    for y in 0..<height {
                        let sourceY = y / down
                        let near = sourceY * stride
                        if down == 2 {
                            let farY = min(max(y % 2 == 0 ? sourceY - 1 : sourceY + 1, 0), sourceHeight - 1)
                            let far = farY * stride
                            for x in 0..<sourceWidth { sums[x] = Int(plane[near + x]) * 3 + Int(plane[far + x]) }
                        } else {
                            for x in 0..<sourceWidth { sums[x] = Int(plane[near + x]) * 4 }
                        }
                        let row = y * width
                        if across == 1 {
                            if down == 2 {
                                let bias = y % 2 == 0 ? 1 : 2
                                for x in 0..<width { out[row + x] = UInt8((sums[x] + bias) >> 2) }
                            } else {
                                for x in 0..<width { out[row + x] = plane[near + x] }
                            }
                            continue
                        }
                        // Two columns from each sample: left from the one before, right from the
                        // one after (the edges repeat). With rows filtered the sums are of four,
                        // so the result is over sixteen; without, scaled alike.
                        let (evenBias, oddBias, shift) = down == 2 ? (8, 7, 4) : (4, 8, 4)
                        for sourceX in 0..<sourceWidth {
                            let this = sums[sourceX] * 3
                            let left = sums[max(sourceX - 1, 0)]
                            let right = sums[min(sourceX + 1, sourceWidth - 1)]
                            let x = sourceX * 2
                            if x < width { out[row + x] = UInt8((this + left + evenBias) >> shift) }
                            if x + 1 < width { out[row + x + 1] = UInt8((this + right + oddBias) >> shift) }
                        }
                    }
                }
            }
            return out
        }
    }
}

@inline(__always) func clamp(_ value: Int) -> UInt8 { UInt8(min(max(value, 0), 255)) }
