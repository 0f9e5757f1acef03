import ClosetNetwork
import Foundation
import Testing

@testable import ClosetServer

/// The lanes requests run on keep nothing of a job once it has run.
@Suite struct WorkerPoolTests {
    final class Body: @unchecked Sendable {}

    /// A job that ran is let go while its lane's queue still holds others (writes arriving as
    /// fast as they run never empty it): before, every job since the queue last emptied was
    /// kept, each with its request's body.
    @Test func aJobThatRanIsNotKeptWhileTheQueueHoldsOthers() throws {
        let pool = WorkerPool(threadsPerLane: [1])
        defer { pool.stop() }
        let answer = HTTPServer.Answer(HTTPResponse(status: 200))
        weak var ran: Body?
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        do {
            let body = Body()
            ran = body
            pool.submit(
                WorkerPool.Job(connection: 1, keepAlive: true, head: false) { _ in
                    withExtendedLifetime(body) {}
                    return answer
                }, lane: 0)
        }
        // The next job holds the lane's one thread; a third waits behind it.
        pool.submit(
            WorkerPool.Job(connection: 2, keepAlive: true, head: false) { _ in
                started.signal()
                release.wait()
                return answer
            }, lane: 0)
        pool.submit(WorkerPool.Job(connection: 3, keepAlive: true, head: false) { _ in answer }, lane: 0)
        started.wait()
        #expect(ran == nil)
        release.signal()
        var finished: [UInt64] = []
        let deadline = Date().addingTimeInterval(10)
        while finished.count < 3, Date() < deadline {
            finished += pool.takeFinished().map(\.connection)
            usleep(1000)
        }
        #expect(finished == [1, 2, 3])
    }
}
