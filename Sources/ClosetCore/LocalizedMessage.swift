/// An error whose text is meant for the user as it is (an app's own alert message).
public protocol LocalizedMessage: Error {
    var message: String { get }
    /// Which kind of problem, where a caller tells them apart (a served API answers a wrong
    /// password with its own status): `market.wrong-password`. Nil: `app.message`.
    var diagnosticID: String? { get }
    /// The app's own Korean for it, said instead under `.lang ko`; nil: the message.
    var koreanMessage: String? { get }
}

extension LocalizedMessage {
    public var diagnosticID: String? { nil }
    public var koreanMessage: String? { nil }
}
