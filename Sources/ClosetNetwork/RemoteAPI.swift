/// A REST API a pack talks to: its base URL (which an environment variable replaces, so
/// tests point it at a local server) and the variable holding its key, if it needs one.
public struct RemoteAPI: Sendable, Hashable {
    /// `unsplash`: recordings name requests to it `{unsplash}/path`.
    public var name: String
    /// `Unsplash API`: how messages name it.
    public var title: String
    /// `CLOSET_UNSPLASH_URL`.
    public var baseVariable: String
    public var defaultBase: String?
    /// `UNSPLASH_ACCESS_KEY`.
    public var keyVariable: String?

    public init(name: String, title: String, baseVariable: String, defaultBase: String?, keyVariable: String?) {
        self.name = name
        self.title = title
        self.baseVariable = baseVariable
        self.defaultBase = defaultBase
        self.keyVariable = keyVariable
    }
}
