import ClosetCore

/// The app's `RepositoryError`, with its Korean messages.
package enum RepositoryError: Error, Equatable, Sendable, LocalizedMessage {
    case invalidImage
    case invalidData
    case transferError(String)
    case failToSave

    package var message: String { errorDescription }

    package var errorDescription: String {
        switch self {
        case .invalidImage: "이미지가 올바르지 않습니다."
        case .invalidData: "데이터가 잘못되었습니다."
        case .transferError(let error): "에러가 발생했습니다. \(error)"
        case .failToSave: "저장에 실패했습니다."
        }
    }
}
