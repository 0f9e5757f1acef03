import ClosetHTTP
// Imported here, where the static runtime is asked for, so a release build links the static
// libraries under them (Package.swift's `staticRuntimeModule`).
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#endif

// The network helper `closet` starts on its first live request (see HelperTransport).
exit(HelperServer.run())
