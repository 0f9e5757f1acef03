import ClosetNetwork
import ClosetServer
import FuzzDriver

/// Arbitrary bytes as a connection's stream to `closet serve` (issue 27): read by the request
/// reader in pieces whose sizes the first byte picks, every request's multipart body parsed too.
/// A request from the network must become a request or a refusal, never a trap, a hang or a leak.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    var limits = RequestReader.Limits()
    limits.headerBytes = 2048
    limits.bodyBytes = 4096
    var reader = RequestReader(limits: limits)
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    let piece = Int(data[0] % 16) + 1
    var at = 0
    while at < bytes.count {
        let end = min(bytes.count, at + piece)
        reader.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[at..<end])))
        at = end
        loop: while true {
            switch reader.next() {
            case .needMore: break loop
            case .refused(let refusal):
                precondition((400...599).contains(refusal.status))
                return 0
            case .request(let request, _):
                _ = request.segments
                _ = request.multipart
            }
        }
    }
    return 0
}

@_cdecl("ServerFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOneInput)
}
