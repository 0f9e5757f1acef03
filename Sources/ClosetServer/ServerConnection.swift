import ClosetNetwork

/// One client connection of `HTTPServer`, touched only by the poll loop's thread.
final class ServerConnection {
    /// Never reused (a descriptor number is): a finished job finds its connection by this.
    let id: UInt64
    let fd: Int32
    /// The peer's address (`127.0.0.1`), what per-address limits count by.
    let address: String
    var reader: RequestReader
    var output: [UInt8] = []
    var written = 0
    var closeAfterWrite = false
    /// The last time bytes came in or went out.
    var lastActivity: Double
    /// When the request being read began to arrive (nil between requests).
    var requestStarted: Double?
    /// A request of this connection is with a worker: nothing more is read until it answers,
    /// so answers go out in order and a pipelining client cannot queue up work.
    var inFlight = false
    /// An answer held back until `heldUntil` (`--latency`), and whether to close after it.
    var held: [UInt8] = []
    var heldUntil: Double?
    var closeAfterHeld = false
    /// The bytes of this connection counted against the server's limit on what it holds.
    var accounted = 0
    /// What the poller waits on it for; nil once it no longer watches it.
    var watching: (readable: Bool, writable: Bool)?

    init(id: UInt64, fd: Int32, address: String, limits: RequestReader.Limits, now: Double) {
        self.id = id
        self.fd = fd
        self.address = address
        reader = RequestReader(limits: limits)
        lastActivity = now
    }

    var pendingOutput: Int { output.count - written }

    /// Waiting for nothing of the server's: between requests or mid-way through one, with
    /// nothing to send (what may be closed to make room for a new connection).
    var isWaitingOnClient: Bool { !inFlight && pendingOutput == 0 && heldUntil == nil && !closeAfterWrite }
}
