import ClosetShell
import Foundation

exit(ClosetCommand.main(Array(CommandLine.arguments.dropFirst())))
