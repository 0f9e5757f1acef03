import ClosetLanguage
import ClosetNetwork

/// An app's own REST API, answered from the store by `closet serve` (so the app itself can run
/// against closet). A pack declares it with its commands; the server asks each API in turn and
/// the first that claims the path answers.
public struct ServedAPI: Sendable {
    /// What `--log` and the start banner call it: `market`.
    public var name: String
    /// One line for the banner and `docs/serve.md`: the routes it answers.
    public var summary: String {
        get { describe() }
        set { describe = { newValue } }
    }
    /// Made when asked: a statement never asks, and every pack's routes joined into lines were
    /// a twentieth of a new process's start.
    private var describe: @Sendable () -> String
    /// The response to a request of this API, or nil when the path is not one of its own.
    /// Runs inside one store transaction (`Session.serving`): an error thrown undoes it.
    public var answer: @Sendable (ServedRequest, ServedContext) throws -> HTTPResponse?
    /// Its GET answers depend on the store alone: the server may keep one and give it again
    /// until the store's files change (any commit, from this process or another, changes them).
    public var readsOnlyTheStore: Bool
    /// The API's own failure for a request of its own (`--fail`): what its server sent when it
    /// broke, so an app's error path sees what it would. Nil when the path is not its own.
    public var failure: @Sendable (ServedRequest) -> HTTPResponse?
    /// The bytes of a picture at this URL that the store (or a pack's cache in it) holds: what
    /// `/pictures/...` answers before the recordings (`ServedPictures`). Nil when it has none.
    public var picture: (@Sendable (String, ServedContext) throws -> [UInt8]?)?
    /// Whether a path is one of its own, decided from the path alone: the server's own
    /// refusals (a body too large, a request too slow, a busy store) then take this API's
    /// error shape.
    public var claims: @Sendable (_ method: String, _ path: String) -> Bool
    /// The API's error shape for a status and a reason (`{"error":true,"reason":"..."}`); plain
    /// text by default.
    public var error: @Sendable (_ status: Int, _ reason: String) -> HTTPResponse
    /// What a picture at this URL looks like, as the API's own answers say (its size, its
    /// colour, its BlurHash): what `--placeholders` draws where no picture was recorded.
    public var placeholder: (@Sendable (String, ServedContext) -> PicturePlaceholder?)?
    /// How the API's picture URLs ask for a size (imgix's `w=`): a size no recording holds is
    /// made from a recorded size of the same picture. Nil: each size is its own picture.
    public var pictureSizes: PictureSizes?
    /// The live API a replaying one stands for (its real base URL): where `--through all`
    /// sends what no recording answers. Nil for an API answered from the store.
    public var live: String?
    /// Its GET answers depend on the store and on who asks, and nothing else: the name of who
    /// asks, when the server knows it without running anything (a token a worker has checked),
    /// under which an answer may be kept with the store's answers (`readsOnlyTheStore`'s rule:
    /// until the store's files change). Nil from it: nothing kept, nothing given from the kept.
    public var answerVariant: (@Sendable (ServedRequest, ServedTokens) -> String?)?
    /// What `export fixtures <name>` writes: the requests whose answers an app's unit tests
    /// read (a first page, an item), made from the store as the session sees it. Nil: none.
    public var fixtures: (@Sendable (ServedContext) throws -> [ServedFixture])?

    public init(
        name: String, summary: String, readsOnlyTheStore: Bool = false,
        claims: @escaping @Sendable (_ method: String, _ path: String) -> Bool = { _, _ in false },
        error: @escaping @Sendable (_ status: Int, _ reason: String) -> HTTPResponse = ServedAPI.plainError,
        failure: @escaping @Sendable (ServedRequest) -> HTTPResponse? = { _ in nil },
        picture: (@Sendable (String, ServedContext) throws -> [UInt8]?)? = nil,
        answer: @escaping @Sendable (ServedRequest, ServedContext) throws -> HTTPResponse?
    ) {
        self.name = name
        describe = { summary }
        self.readsOnlyTheStore = readsOnlyTheStore
        self.claims = claims
        self.error = error
        self.failure = failure
        self.picture = picture
        self.answer = answer
    }

    /// An API declared as routes (`ServedRoute`): one router matches them, so the paths it
    /// claims, the `400` for a parameter out of range and the `405` for what no route takes
    /// are the same for every such API; `summary` is made from the routes.
    public init(
        name: String, routes: [ServedRoute], readsOnlyTheStore: Bool = false,
        error: @escaping @Sendable (_ status: Int, _ reason: String) -> HTTPResponse = ServedAPI.plainError,
        failure: (@Sendable (ServedRequest) -> HTTPResponse)? = nil,
        fixtures: (@Sendable (ServedContext) throws -> [ServedFixture])? = nil,
        answerVariant: (@Sendable (ServedRequest, ServedTokens) -> String?)? = nil
    ) {
        let router = ServedRouter(routes: routes, error: error)
        self.init(
            name: name, summary: "", readsOnlyTheStore: readsOnlyTheStore,
            claims: { _, path in router.claims(path) }, error: error,
            failure: { request in router.claims(request.path) ? failure?(request) : nil },
            answer: { request, context in try router.answer(request, context) })
        self.fixtures = fixtures
        self.answerVariant = answerVariant
        describe = { routes.map(\.shown).joined(separator: ", ") }
    }

    @Sendable public static func plainError(_ status: Int, _ reason: String) -> HTTPResponse {
        HTTPResponse.text(reason + "\n", status: status)
    }
}
