import ClosetCore
import ClosetLanguage
import ClosetNetwork

/// A request of the photos pack that failed, said as closet says it and, under `.lang ko`, as
/// Picterest's `NetworkError` did (reference §4.1): `(403) 실패한 상태코드`, `디코딩 실패`, ...
/// closet's own conditions (offline, no recording, a missing key) keep closet's words.
struct PicterestNetworkError: LocalizedMessage {
    var error: NetworkError

    var message: String { error.message }
    var diagnosticID: String? { "network.failed" }

    var koreanMessage: String? {
        switch error {
        case .status(let code, _, _, _, _): "(\(code)) 실패한 상태코드"
        case .malformed: "디코딩 실패"
        case .invalidBaseURL: "유효하지 않은 URL입니다."
        case .connectionRefused, .cannotFindHost, .timedOut, .unfinished, .failed, .tooManyRedirects:
            "HTTP 요청에 실패했습니다."
        case .offline, .noRecording, .missingKey, .api, .helper, .cancelled, .recording: nil
        }
    }

    /// `run`, its network errors said so (and each page `next` fetches after it).
    static func speaking(_ run: @escaping @Sendable (Invocation) throws -> Outcome)
        -> @Sendable (Invocation) throws -> Outcome
    {
        { invocation in
            do {
                return try run(invocation)
            } catch let error as NetworkError {
                throw PicterestNetworkError(error: error)
            }
        }
    }
}
