/// An error whose text is meant for the user as it is (an app's own alert message).
public protocol LocalizedMessage: Error {
    var message: String { get }
}
