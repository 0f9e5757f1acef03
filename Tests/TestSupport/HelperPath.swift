import Foundation

/// The `closet-http` helper `swift build` puts beside the test bundle.
public enum HelperPath {
    public static var path: String {
        let bundle = Bundle.main.bundlePath
        let folder = bundle.hasSuffix(".xctest") ? (bundle as NSString).deletingLastPathComponent : bundle
        return (folder as NSString).appendingPathComponent("closet-http")
    }
}
