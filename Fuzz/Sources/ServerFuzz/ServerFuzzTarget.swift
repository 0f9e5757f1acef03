import ClosetFuzzing
import FuzzDriver

/// Arbitrary bytes as a connection's stream to the whole of `closet serve` (issues 27 and 40):
/// the request reader, then the server's handler and every route against a market in memory
/// (`ServerFuzzing`, in the main package so it may use the shell's `package` declarations).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ServerFuzzing.run(data, size)
}

@_cdecl("ServerFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOneInput)
}
