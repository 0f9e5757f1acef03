import ClosetNetwork
import Foundation

/// The network helper's loop: frames in on standard input, frames out on standard output,
/// one live transport for the whole session. Ends when the shell closes the socket.
package enum HelperServer {
    public static func run(input: Int32 = 0, output: Int32 = 1) -> Int32 {
        let reader = FrameChannel(fd: input)
        let writer = FrameChannel(fd: output)
        var transport: URLSessionTransport?
        while true {
            let frame: Data
            do {
                frame = try reader.read(deadline: nil)
            } catch {
                return 0
            }
            guard let request = WireFormat.decodeRequest(frame) else {
                FileHandle.standardError.write(Data("closet-http: a request frame it cannot read\n".utf8))
                return 2
            }
            // The session's timeout is set once; a request's own timeout is set on it too.
            let active = transport ?? URLSessionTransport(timeoutSeconds: request.timeoutSeconds)
            transport = active
            let result = active.perform(request)
            do {
                try writer.write(WireFormat.encode(result))
            } catch {
                return 0
            }
        }
    }
}
