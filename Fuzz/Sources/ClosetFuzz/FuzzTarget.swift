import ClosetFuzzing
import FuzzDriver

/// Arbitrary bytes through the whole front end (`LanguageFuzzing`, in the main package).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    LanguageFuzzing.run(data, size)
}

@_cdecl("ClosetFuzz_main")
public func fuzzMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> CInt {
    runFuzzer(argc, argv, fuzzOneInput)
}
