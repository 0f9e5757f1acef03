import ClosetHTTP

#if canImport(Glibc)
    import Glibc
#endif

// The network helper `closet` starts on its first live request (see HelperTransport).
exit(HelperServer.run())
