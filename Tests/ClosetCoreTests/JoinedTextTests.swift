import Testing

@testable import ClosetCore

/// `joinedText` gives exactly what the standard library's `joined(separator:)` gives.
@Suite struct JoinedTextTests {
    @Test func itIsJoined() {
        let lists: [[String]] = [[], [""], ["a"], ["", ""], ["a", "b"], ["니트.png", "", "코트 사진.jpg", "c"]]
        for list in lists {
            for separator in ["", " ", ",", ", ", "사이"] {
                #expect(list.joinedText(separator: separator) == list.joined(separator: separator), "\(list)")
            }
        }
    }
}
