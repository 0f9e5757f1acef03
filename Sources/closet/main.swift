import ClosetShell
import Foundation

exit(ClosetCommand.runProcess())
