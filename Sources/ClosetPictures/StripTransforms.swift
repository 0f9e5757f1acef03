import Foundation

/// Every strip of a picture's blocks (`JPEGBlocks`' layout) for an encoder that tries several
/// qualities (`JPEGEncoder.encode(_:fittingIn:)`): each strip is transformed once and only
/// quantized again for each quality. A large picture's strips are transformed on a second
/// thread, ahead of the coder reading them, so the colour conversion and the DCT take no time of
/// their own on two cores; a small one's when first read, on the caller's thread. A strip no
/// one reads before `stop` (a quality too large for its limit: the picture is made smaller) is
/// never transformed.
final class StripTransforms: @unchecked Sendable {
    /// Smaller pictures are transformed on the caller's thread: a thread is worth starting for
    /// tens of milliseconds of work, not for one.
    static let fewestPixelsAhead = 1_000_000

    let strips: Int
    let mcusAcross: Int
    private let stripCount: Int
    private let picture: Bitmap
    private let coefficients: UnsafeMutablePointer<Float>
    /// The colours of the strip being transformed: the thread's while it runs, then the caller's.
    private var blocks: JPEGBlocks
    private let condition = NSCondition()
    // Under `condition` while the thread runs.
    private var transformed = 0
    private var stopping = false
    private var running: Bool

    init(_ picture: Bitmap) {
        self.picture = picture
        strips = (picture.height + 15) / 16
        blocks = JPEGBlocks(picture, keepsStrip: false)
        (mcusAcross, stripCount) = (blocks.mcusAcross, blocks.stripCount)
        coefficients = .allocate(capacity: max(stripCount * strips, 1))
        running = picture.width * picture.height >= Self.fewestPixelsAhead
        if running {
            let thread = Thread { [self] in run() }
            thread.name = "closet-strips"
            thread.start()
        }
    }

    // The thread holds the object until it ends: nothing is freed under it.
    deinit { coefficients.deallocate() }

    /// Strip `strip`'s coefficients, once transformed: by the thread (waited for) or, when there
    /// is none or it has stopped, here.
    func strip(_ strip: Int) -> UnsafePointer<Float> {
        condition.lock()
        while transformed <= strip, running { condition.wait() }
        let ready = transformed > strip
        condition.unlock()
        // Not there yet: no thread runs now.
        while !ready, transformed <= strip {
            blocks.transform(picture, stripAt: transformed * 16, into: coefficients + transformed * stripCount)
            transformed += 1
        }
        return UnsafePointer(coefficients + strip * stripCount)
    }

    /// Transforms no strip not already begun; returns once the thread has ended.
    func stop() {
        condition.lock()
        stopping = true
        while running { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while transformed < strips, !stopping {
            let strip = transformed
            condition.unlock()
            blocks.transform(picture, stripAt: strip * 16, into: coefficients + strip * stripCount)
            condition.lock()
            transformed = strip + 1
            condition.broadcast()
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
