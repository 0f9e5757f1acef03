import ClosetCore
import ClosetPictures
import FuzzDriver

/// Arbitrary bytes through the JPEG decoder (issue 26): a picture from the network or a file must
/// decode or fail with a message, never trap, hang or leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let bitmap = try? JPEGDecoder.decode(bytes, maximumPixels: 1 << 20) {
        precondition(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
    }
    // At an eighth, as a check or a thumbnail decodes it (the AC values read past), and again
    // from what that decoding kept: the same pixels.
    if let small = try? JPEGDecoder.decode(bytes, maximumPixels: 1 << 20, drawnWithin: (1, 1)) {
        precondition(small.pixels.count == small.width * small.height * 4)
        precondition((try? JPEGDecoder.decode(bytes, maximumPixels: 1 << 20, drawnWithin: (1, 1))) == small)
    }
    return 0
}

@_cdecl("JPEGFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOneInput)
}
