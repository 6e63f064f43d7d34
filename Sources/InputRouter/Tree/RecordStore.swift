/// Growable storage of plain records, owned by the tree (its nodes and its child grids).
///
/// A `ContiguousArray` read from a class property is retained for every use that outlives
/// one element access: the hit-test's `withUnsafeBufferPointer` over the nodes and over the
/// grids cost two retain/release pairs (about 80 instructions) per query. Here the tree
/// holds the memory itself, so a walk reads `base` and nothing is counted. The records are
/// trivial (no references: a node's input region is a pointer the tree's side table owns),
/// so growing moves bytes and freeing needs no deinitialisation.
///
/// `base` moves only when `append` grows the store. Nothing may append while a hit-test
/// walks the tree (it holds `base`): the tree traps on any change during a walk
/// (`SurfaceTree.sceneChanged`).
struct RecordStore<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 16) {
        // Moved by bytes, freed without deinitialising: no references inside.
        precondition(_isPOD(Element.self), "RecordStore holds trivial records only")
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    /// Checked like an array's subscript: a bad slot traps instead of reading past the end.
    subscript(i: Int) -> Element {
        @inline(__always) unsafeAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "record index out of range")
            return UnsafePointer(base + i)
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "record index out of range")
            return base + i
        }
    }

    var indices: Range<Int> { 0..<count }

    mutating func append(_ element: Element) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// Frees the memory; the store must not be used again (the tree's deinit).
    func deallocate() { base.deallocate() }
}
