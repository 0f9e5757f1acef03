import CServerSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The threads requests run on, in lanes (the server's reads on several, its writes on one):
/// the poll loop hands a job to a lane and goes back to its sockets; a finished job is put
/// where the loop takes it and the loop is woken through a pipe it polls. A lane's queue never
/// holds more than one job per connection (a connection waits for its answer before its next
/// request is read), so the queues are bounded by the connections.
final class WorkerPool: @unchecked Sendable {
    /// A job's result, for the connection it came from.
    struct Finished {
        var connection: UInt64
        var answer: HTTPServer.Answer
        var keepAlive: Bool
        var head: Bool
    }

    struct Job {
        var connection: UInt64
        var keepAlive: Bool
        var head: Bool
        var run: @Sendable (HTTPServer.Worker) -> HTTPServer.Answer
    }

    private final class Lane: @unchecked Sendable {
        let condition = NSCondition()
        /// Waiting jobs from `head` on; a job taken leaves an empty slot, so a queue that never
        /// empties (writes arriving as fast as they run) does not keep every request it ran, each
        /// with its body (a 90/10 mix of reads and uploads held 150 pictures' bodies so).
        var jobs: [Job?] = []
        var head = 0
        var running = 0
        var stopping = false
    }

    private let lanes: [Lane]
    private let finishedLock = NSLock()
    private var finished: [Finished] = []
    /// Each worker's job now, for `retire` (under `finishedLock`).
    private var current: [HTTPServer.Worker: Job] = [:]
    private var retired = 0

    private final class WorkerBox {
        let worker: HTTPServer.Worker
        init(_ worker: HTTPServer.Worker) { self.worker = worker }
    }

    private static let workerKey = "closet.serve.worker"
    /// The pipe the loop polls: a byte is written when a job finishes.
    let wakeRead: Int32
    private let wakeWrite: Int32
    private var threads: [Thread] = []

    /// Lanes whose threads run at a lower priority (CPU-heavy work that must yield).
    private let yielding: Set<Int>

    init(threadsPerLane: [Int], yieldingLanes: Set<Int> = []) {
        yielding = yieldingLanes
        var ends: [Int32] = [0, 0]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        lanes = threadsPerLane.map { _ in Lane() }
        for (laneIndex, count) in threadsPerLane.enumerated() {
            for index in 0..<max(1, count) {
                let worker = HTTPServer.Worker(lane: laneIndex, index: index)
                let thread = Thread { [unowned self] in self.work(worker) }
                thread.name = "closet-serve-\(laneIndex)-\(index)"
                thread.stackSize = 8 << 20
                threads.append(thread)
            }
        }
        for thread in threads { thread.start() }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    func submit(_ job: Job, lane: Int) {
        let lane = lanes[min(max(lane, 0), lanes.count - 1)]
        lane.condition.lock()
        lane.jobs.append(job)
        lane.condition.signal()
        lane.condition.unlock()
    }

    /// Every job finished since the last call; the wake pipe drained.
    func takeFinished() -> [Finished] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &drain, drain.count) > 0 {}
        finishedLock.lock()
        defer { finishedLock.unlock() }
        let taken = finished
        finished.removeAll(keepingCapacity: true)
        return taken
    }

    /// Jobs queued, running, or finished and not yet taken.
    var busy: Int {
        finishedLock.lock()
        var count = finished.count
        finishedLock.unlock()
        for lane in lanes {
            lane.condition.lock()
            count += lane.jobs.count - lane.head + lane.running
            lane.condition.unlock()
        }
        return count
    }

    /// The threads finish their current job and end; queued jobs are not run.
    func stop() {
        for lane in lanes {
            lane.condition.lock()
            lane.stopping = true
            lane.condition.broadcast()
            lane.condition.unlock()
        }
    }

    /// Workers retired so far (`retire`).
    var retiredCount: Int {
        finishedLock.lock()
        defer { finishedLock.unlock() }
        return retired
    }

    /// Called on a worker thread that cannot go on (its job met damage deep inside code that
    /// cannot unwind): its job is answered with `answer`, a new thread takes its place in the
    /// lane, and this one waits forever, touching nothing again.
    func retire(answering answer: HTTPServer.Answer) -> Never {
        guard let worker = (Thread.current.threadDictionary[Self.workerKey] as? WorkerBox)?.worker else {
            fatalError("retire is for the server's worker threads")
        }
        finishedLock.lock()
        if let job = current.removeValue(forKey: worker) {
            finished.append(
                Finished(connection: job.connection, answer: answer, keepAlive: false, head: job.head))
        }
        retired += 1
        finishedLock.unlock()
        let lane = lanes[worker.lane]
        lane.condition.lock()
        lane.running -= 1
        lane.condition.unlock()
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        let thread = Thread { [unowned self] in self.work(worker) }
        thread.name = "closet-serve-\(worker.lane)-\(worker.index)"
        thread.stackSize = 8 << 20
        thread.start()
        while true { sleep(3600) }
    }

    private func work(_ worker: HTTPServer.Worker) {
        Thread.current.threadDictionary[Self.workerKey] = WorkerBox(worker)
        if yielding.contains(worker.lane) { _ = closet_lower_thread_priority(10) }
        let lane = lanes[worker.lane]
        while true {
            lane.condition.lock()
            while lane.head == lane.jobs.count, !lane.stopping { lane.condition.wait() }
            if lane.stopping {
                lane.condition.unlock()
                return
            }
            let taken = lane.jobs[lane.head]
            lane.jobs[lane.head] = nil
            lane.head += 1
            if lane.head == lane.jobs.count {
                lane.jobs.removeAll(keepingCapacity: true)
                lane.head = 0
            } else if lane.head >= 256, lane.head * 2 >= lane.jobs.count {
                lane.jobs.removeFirst(lane.head)
                lane.head = 0
            }
            guard let job = taken else {
                lane.condition.unlock()
                continue
            }
            lane.running += 1
            lane.condition.unlock()
            finishedLock.lock()
            current[worker] = job
            finishedLock.unlock()

            let answer = job.run(worker)

            finishedLock.lock()
            current[worker] = nil
            finished.append(
                Finished(connection: job.connection, answer: answer, keepAlive: job.keepAlive, head: job.head))
            finishedLock.unlock()
            lane.condition.lock()
            lane.running -= 1
            lane.condition.unlock()
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }
}
