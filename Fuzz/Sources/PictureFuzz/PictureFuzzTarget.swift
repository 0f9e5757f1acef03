import ClosetCore
import ClosetPictures
import FuzzDriver

/// Arbitrary bytes through the picture decoders: the first byte picks PNG (CRCs not checked, so
/// mutations reach the inflater and the rows) at full size, reduced as drawn small or made an
/// upload's size (`fittingIn`), the check that must refuse exactly what decoding refuses, a zlib
/// stream, or the compressor (what it writes must inflate to the input). A crash, hang or leak
/// here is a picture from the network that could take down a session.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] & 7 {
    case 0:
        if let bitmap = try? PNGDecoder.decode(bytes, checkingCRCs: false) {
            precondition(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
        }
    case 1: _ = try? Inflate.zlib(bytes, limit: 1 << 20)
    case 2:
        if let bitmap = try? PNGDecoder.decode(bytes, checkingCRCs: false, drawnWithin: (3, 2)) {
            precondition(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
        }
    case 4:
        if let bitmap = try? PNGDecoder.decode(bytes, fittingIn: 5, checkingCRCs: false) {
            precondition(
                bitmap.pixels.count == bitmap.width * bitmap.height * 4 && max(bitmap.width, bitmap.height) <= 5)
        }
    case 5:
        let checked = (try? PNGDecoder.check(bytes, checkingCRCs: false)) != nil
        precondition(checked == ((try? PNGDecoder.decode(bytes, checkingCRCs: false)) != nil))
    default:
        precondition((try? Inflate.zlib(Deflate.zlib(bytes), limit: bytes.count)) == bytes)
    }
    return 0
}

@_cdecl("PictureFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOneInput)
}
