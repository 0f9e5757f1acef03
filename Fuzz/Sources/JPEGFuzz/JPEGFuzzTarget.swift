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
    return 0
}

@_cdecl("JPEGFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOneInput)
}
