import Foundation
import Testing

@testable import ClosetShell

/// Pieces written behind their making arrive whole and in order, and a failed write is told at
/// the next hand-over or at the end, with nothing after it written.
@Suite struct WriteBehindTests {
    final class Written: @unchecked Sendable {
        let lock = NSLock()
        var bytes: [UInt8] = []
        var calls = 0
    }

    @Test func piecesArriveInOrder() {
        let written = Written()
        let behind = WriteBehind { piece in
            written.lock.withLock { written.bytes += piece }
            return nil
        }
        var expected: [UInt8] = []
        for number in 0..<200 {
            let piece = [UInt8](repeating: UInt8(number), count: number * 97 % 5000)
            expected += piece
            #expect(behind.hand(piece) == nil)
        }
        #expect(behind.finish() == nil)
        #expect(written.bytes == expected)
    }

    @Test func aFailureIsToldAndNothingAfterItIsWritten() {
        let written = Written()
        let behind = WriteBehind(depth: 1) { piece in
            written.lock.withLock {
                written.calls += 1
                return written.calls == 3 ? ENOSPC : nil
            }
        }
        var told: Int32?
        for number in 0..<50 where told == nil { told = behind.hand([UInt8(number)]) }
        #expect(behind.finish() == ENOSPC)
        #expect(told == nil || told == ENOSPC)
        #expect(written.calls == 3)
    }
}
