// A table of plain values (no references counted) by index, on the C heap. The sender
// reads its lookups from one: an element of a class's array property is read with a
// retain and release of the array's buffer around it (seen in the disassembly of
// `WaylandSender.deliver`), where this is two loads. For trivial types only; the owner
// calls `deallocate()` once, last.
struct TargetTable<Element> {
    private var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0
    private let empty: Element

    init(empty: Element) {
        precondition(_isPOD(Element.self), "TargetTable holds trivial values only")
        self.empty = empty
    }

    @inline(__always) subscript(i: Int) -> Element {
        i < count ? base.unsafelyUnwrapped[i] : empty
    }

    /// `body` on element `i` in place, growing the table (with `empty` elements) to reach it.
    @inline(__always) mutating func update(at i: Int, _ body: (inout Element) -> Void) {
        if i >= count { set(empty, at: i) }
        body(&base.unsafelyUnwrapped[i])
    }

    /// Sets element `i`, growing the table (with `empty` elements) to reach it.
    mutating func set(_ value: Element, at i: Int) {
        if i >= capacity {
            let newCapacity = max(16, capacity * 2, i + 1)
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
            if let base {
                grown.moveInitialize(from: base, count: count)
                base.deallocate()
            }
            base = grown
            capacity = newCapacity
        }
        if i >= count {
            (base.unsafelyUnwrapped + count).initialize(repeating: empty, count: i + 1 - count)
            count = i + 1
        }
        base.unsafelyUnwrapped[i] = value
    }

    mutating func deallocate() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }
}
