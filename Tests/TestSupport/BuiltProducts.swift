import Foundation

/// The executables `swift build` put beside the test bundle: process tests run the binary of
/// the build under test, whatever `--scratch-path` or configuration made it.
public enum BuiltProducts {
    /// The folder holding the test bundle (`.build/<triple>/debug` by default).
    public static var folder: String {
        let bundle = Bundle.main.bundlePath
        return bundle.hasSuffix(".xctest") ? URL(fileURLWithPath: bundle).deletingLastPathComponent().path : bundle
    }

    /// The `closet` executable.
    public static var closet: String { folder + "/closet" }

    /// The `closet-http` network helper.
    public static var helper: String { folder + "/closet-http" }
}

/// The `closet-http` helper beside the test bundle.
public enum HelperPath {
    public static var path: String { BuiltProducts.helper }
}
