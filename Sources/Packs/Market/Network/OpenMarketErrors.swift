import ClosetCore
import ClosetNetwork

/// The app's errors around its network (reference §3.2), with its words. closet says what
/// happened in its own terms (the URL, the status line); the remote market adds the app's text
/// for the same failure, so a developer of the app recognises the alert it would have shown.
enum OpenMarketNetworkError: Error, Equatable {
    case connectionProblem
    case invalidResponseStatuscode(Int)
    case invalidData
    case invalidURL
    case invalidRequest

    var message: String {
        switch self {
        case .connectionProblem: "dataTask작업 error 존재"
        case .invalidResponseStatuscode(let code): "Response StatusCode \(code)"
        case .invalidData: "dataTask작업 Data 미반환"
        case .invalidURL: "유효하지 않는 URL"
        case .invalidRequest: "유효하지 않는 Request"
        }
    }

    /// closet's failure as the app's `NetworkManager` would have classified it.
    init(_ error: NetworkError) {
        switch error {
        case .status(let code, _, _, _, _): self = .invalidResponseStatuscode(code)
        case .invalidBaseURL: self = .invalidURL
        case .malformed: self = .invalidData
        case .offline, .noRecording, .missingKey, .connectionRefused, .cannotFindHost, .timedOut, .unfinished, .api,
            .tooManyRedirects, .failed, .helper, .cancelled, .recording:
            self = .connectionProblem
        }
    }
}

/// What a use case's request came to: the server's failure, or an answer it could not decode.
enum OpenMarketUseCaseFailure: Error, Equatable {
    case networkError(OpenMarketNetworkError)
    case decodingError

    /// A failure thrown on the way (closet's network error, or its decoding failure).
    init(_ error: NetworkError) {
        if case .malformed = error {
            self = .decodingError
        } else {
            self = .networkError(OpenMarketNetworkError(error))
        }
    }
}

/// The app's use cases, each with its own words for a decoding failure.
enum OpenMarketUseCase: Equatable {
    /// `ItemListNetworkUseCase`: the list's pages.
    case itemList
    /// `ItemNetworkUseCase`: the detail screen's item and its deletion.
    case item
    /// `ItemEditNetworkUseCase`: the edit screen's load, register and update.
    case itemEdit

    func message(_ failure: OpenMarketUseCaseFailure) -> String {
        switch failure {
        case .networkError(let error): "Networking Error - \(error.message)"
        case .decodingError: self == .itemEdit ? "Decoding 에러 발생" : "Decoding Error"
        }
    }

    /// The view model's prefix (`ItemListViewModelError.useCaseError` and the others).
    var screenPrefix: String {
        switch self {
        case .itemList, .item: "UseCase"
        case .itemEdit: "Item Edit UseCase"
        }
    }

    /// What the screen's alert said for a failure of this use case: the app's words for the
    /// server's failures, the market's own message for the rest (a wrong password, no such id).
    func screenMessage(_ error: Error) -> String {
        let detail: String
        switch error {
        case let remote as RemoteMarketError: detail = message(remote.failure)
        case let network as NetworkError: detail = message(OpenMarketUseCaseFailure(network))
        case let described as any LocalizedMessage: detail = described.message
        default: detail = "\(error)"
        }
        return "\(screenPrefix) \(detail)"
    }
}

/// A remote market's failure: closet's account of it, with the app's alert text for it.
struct RemoteMarketError: Error, Equatable, LocalizedMessage {
    var cause: NetworkError
    var useCase: OpenMarketUseCase

    /// The server's failures get the app's text; closet's own states (offline, no recording,
    /// a missing key, Ctrl-C) are not the app's and stay as they are.
    static func wrapping(_ error: NetworkError, _ useCase: OpenMarketUseCase) -> Error {
        switch error {
        case .status, .malformed, .connectionRefused, .cannotFindHost, .timedOut, .unfinished, .failed,
            .tooManyRedirects:
            RemoteMarketError(cause: error, useCase: useCase)
        case .offline, .noRecording, .missingKey, .invalidBaseURL, .api, .helper, .cancelled, .recording: error
        }
    }

    var failure: OpenMarketUseCaseFailure { OpenMarketUseCaseFailure(cause) }
    /// What the app's screen showed: `Item Edit UseCase Networking Error - Response StatusCode 500`.
    var appMessage: String { "\(useCase.screenPrefix) \(useCase.message(failure))" }
    var message: String { "\(cause.message) (\(appMessage))" }
}

/// `ImageNetworkUseCaseError`: a picture at a URL that could not be had.
enum ImageNetworkUseCaseError: Error, Equatable, LocalizedMessage {
    case networkError(OpenMarketNetworkError)
    case convertDataToImageError
    case invalidURL

    var message: String {
        switch self {
        case .networkError(let error): "Networking Error - \(error.message)"
        case .convertDataToImageError: "Can't convert Data to Image error"
        case .invalidURL: "Invalid URL 주소"
        }
    }
}
