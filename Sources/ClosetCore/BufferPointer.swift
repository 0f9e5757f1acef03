/// A place in a buffer without forcing its base: nil for an empty buffer, which every system
/// call given a length of 0 (or a loop that never runs) accepts.
extension UnsafeRawBufferPointer {
    @inlinable public func pointer(at offset: Int) -> UnsafeRawPointer? { baseAddress.map { $0 + offset } }
}

extension UnsafeMutableRawBufferPointer {
    @inlinable public func pointer(at offset: Int) -> UnsafeMutableRawPointer? { baseAddress.map { $0 + offset } }
}

extension UnsafeBufferPointer {
    @inlinable public func pointer(at offset: Int) -> UnsafePointer<Element>? { baseAddress.map { $0 + offset } }
}

extension UnsafeMutableBufferPointer {
    @inlinable public func pointer(at offset: Int) -> UnsafeMutablePointer<Element>? { baseAddress.map { $0 + offset } }
}
