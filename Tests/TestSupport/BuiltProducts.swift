import Foundation

/// The executables `swift build` put beside the test bundle: process tests run the binary of
/// the build under test, whatever `--scratch-path` or configuration made it.
package enum BuiltProducts {
    /// The folder holding the test bundle (`.build/<triple>/debug` by default).
    package static var folder: String {
        let bundle = Bundle.main.bundlePath
        return bundle.hasSuffix(".xctest") ? URL(fileURLWithPath: bundle).deletingLastPathComponent().path : bundle
    }

    /// The `closet` executable.
    package static var closet: String { folder + "/closet" }

    /// The `closet-http` network helper.
    package static var helper: String { folder + "/closet-http" }
}

/// The `closet-http` helper beside the test bundle.
package enum HelperPath {
    package static var path: String { BuiltProducts.helper }
}
