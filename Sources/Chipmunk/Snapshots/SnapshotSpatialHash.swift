internal import CChipmunk
internal import CChipmunkRuntime

// The spatial hash's history in a snapshot (`Space.useSpatialHash`): the order each of the
// engine's two `cpSpaceHash` indexes visits its shapes in, and the shapes in each cell of
// its table, read and rebuilt by CChipmunkRuntime/BroadPhase.c. The dynamic hash hashes
// its shapes again at every step, in its set's order; the static hash finds its shapes
// cell by cell, in each cell's order, which its whole history set.

/// Captures, checks and rebuilds ``SpatialHashRecord``s.
enum SnapshotSpatialHash {
    static var layoutIsKnown: Bool { CChipmunkSpatialHashLayoutIsKnown() != 0 }

    /// The record of `space`'s two hashes, or nil when the space uses the tree or the
    /// layout is not known.
    static func capture(_ space: Space) -> SpatialHashRecord? {
        guard space.spatialHash != nil, layoutIsKnown else { return nil }
        let h = space.handle
        var counts = CChipmunkSpatialHashCounts()
        guard CChipmunkSpatialHashMeasure(h.pointee.staticShapes, h.pointee.dynamicShapes, &counts) != 0 else {
            return nil
        }
        let shapes = space.shapes.map { UnsafeMutableRawPointer($0.handle) as UnsafeMutableRawPointer? }
        var buffers = HashBuffers(
            shapes: (Int(counts.shapes.0), Int(counts.shapes.1)), cells: (Int(counts.cells.0), Int(counts.cells.1)),
            entries: (Int(counts.entries.0), Int(counts.entries.1)))
        let captured = shapes.withUnsafeBufferPointer {
            CChipmunkSpatialHashCapture(
                h.pointee.staticShapes, h.pointee.dynamicShapes, $0.baseAddress, Int32(shapes.count), &buffers.state)
        }
        return captured != 0 ? buffers.record : nil
    }

    /// Checks a snapshot's spatial-hash record against the rest of it: each hash's set
    /// holds the shapes the engine keeps there (static and sleeping bodies' in the static
    /// one), and its cells are in the table, in increasing order, each listing shapes of
    /// that hash, none twice.
    static func validate(_ s: SnapshotState) throws(SnapshotError) {
        guard let record = s.spatialHash.first else { return }
        func fail(_ message: String) -> SnapshotError { .invalid("the spatial hash: " + message) }
        guard s.spatialHash.count == 1 else { throw fail("\(s.spatialHash.count) records, not 1") }
        guard s.space.broadPhase == 1, !s.space.canonicalBroadPhase else {
            throw fail("a spatial hash's history for a space that uses the tree or rebuilt its broad phase")
        }
        let cellCount = UInt32(CChipmunkSpatialHashCellCount(s.space.hashCount))
        let membership = SnapshotBroadPhase.staticMembership(s)
        var owner = [Int](repeating: -1, count: s.shapes.count)
        for (t, hash) in [record.staticHash, record.dynamicHash].enumerated() {
            let name = t == 0 ? "static hash" : "dynamic hash"
            try SnapshotBroadPhase.checkSetOrder(
                hash.setOrder, size: hash.setSize, of: t, in: s, staticMembership: membership, owner: &owner,
                name: name, fail: fail)
            var previous: UInt32? = nil
            for cell in hash.cells {
                guard cell.cell < cellCount, previous.map({ cell.cell > $0 }) ?? true, !cell.shapes.isEmpty else {
                    throw fail("the \(name) has cell \(cell.cell) (of \(cellCount)) out of order or empty")
                }
                previous = cell.cell
                guard cell.shapes.allSatisfy({ $0 >= 0 && Int($0) < s.shapes.count && owner[Int($0)] == t }),
                    Set(cell.shapes).count == cell.shapes.count
                else { throw fail("cell \(cell.cell) of the \(name) names a shape it does not hold, or one twice") }
            }
        }
    }

    /// Makes the space's two hashes (just built with the snapshot's shapes) the record's.
    /// The record has passed ``validate(_:)``.
    static func restore(_ record: SpatialHashRecord, into space: Space) {
        let h = space.handle
        let shapes = space.shapes.map { UnsafeMutableRawPointer($0.handle) as UnsafeMutableRawPointer? }
        var buffers = HashBuffers(record)
        let restored = shapes.withUnsafeBufferPointer {
            CChipmunkSpatialHashRestore(
                h.pointee.staticShapes, h.pointee.dynamicShapes, $0.baseAddress, Int32(shapes.count), &buffers.state)
        }
        ensure(restored != 0, "Space.restore(_:): could not rebuild the spatial hash (out of memory)")
    }
}

/// The arrays of a `CChipmunkSpatialHashState`, allocated for one capture or restore, and
/// the state pointing into them.
private struct HashBuffers: ~Copyable {
    private let setOrders: (UnsafeMutableBufferPointer<Int32>, UnsafeMutableBufferPointer<Int32>)
    private let cellIndices: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt32>)
    private let cellStarts: (UnsafeMutableBufferPointer<UInt32>, UnsafeMutableBufferPointer<UInt32>)
    private let cellShapes: (UnsafeMutableBufferPointer<Int32>, UnsafeMutableBufferPointer<Int32>)
    var state: CChipmunkSpatialHashState

    /// Arrays of the measured sizes, zeroed, for a capture.
    init(shapes: (Int, Int), cells: (Int, Int), entries: (Int, Int)) {
        func zeroed<T: FixedWidthInteger>(_ count: Int, _: T.Type) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
            buffer.initialize(repeating: 0)
            return buffer
        }
        let orders = (zeroed(shapes.0, Int32.self), zeroed(shapes.1, Int32.self))
        let indices = (zeroed(cells.0, UInt32.self), zeroed(cells.1, UInt32.self))
        let starts = (zeroed(cells.0 + 1, UInt32.self), zeroed(cells.1 + 1, UInt32.self))
        let members = (zeroed(entries.0, Int32.self), zeroed(entries.1, Int32.self))
        (setOrders, cellIndices, cellStarts, cellShapes) = (orders, indices, starts, members)
        func index(
            _ order: UnsafeMutableBufferPointer<Int32>, _ cellIndex: UnsafeMutableBufferPointer<UInt32>,
            _ cellStart: UnsafeMutableBufferPointer<UInt32>, _ cellShape: UnsafeMutableBufferPointer<Int32>
        ) -> CChipmunkHashIndexState {
            CChipmunkHashIndexState(
                stamp: 0, setSize: 0, shapeCount: UInt32(order.count), cellCount: UInt32(cellIndex.count),
                entryCount: UInt32(cellShape.count), setOrder: order.baseAddress, cellIndex: cellIndex.baseAddress,
                cellStart: cellStart.baseAddress, cellShapes: cellShape.baseAddress)
        }
        state = CChipmunkSpatialHashState(
            indexes: (
                index(orders.0, indices.0, starts.0, members.0), index(orders.1, indices.1, starts.1, members.1)
            ))
    }

    /// The arrays of a record, for a restore.
    init(_ record: SpatialHashRecord) {
        let hashes = [record.staticHash, record.dynamicHash]
        let entries = hashes.map { $0.cells.reduce(0) { $0 + $1.shapes.count } }
        self.init(
            shapes: (hashes[0].setOrder.count, hashes[1].setOrder.count),
            cells: (hashes[0].cells.count, hashes[1].cells.count), entries: (entries[0], entries[1]))
        for (t, hash) in hashes.enumerated() {
            let (order, cellIndex, cellStart, cellShape) =
                t == 0
                ? (setOrders.0, cellIndices.0, cellStarts.0, cellShapes.0)
                : (setOrders.1, cellIndices.1, cellStarts.1, cellShapes.1)
            for (i, shape) in hash.setOrder.enumerated() { order[i] = shape }
            var written = 0
            for (c, cell) in hash.cells.enumerated() {
                cellIndex[c] = cell.cell
                cellStart[c] = UInt32(written)
                for shape in cell.shapes {
                    cellShape[written] = shape
                    written += 1
                }
            }
            cellStart[hash.cells.count] = UInt32(written)
        }
        state.indexes.0.stamp = record.staticHash.stamp
        state.indexes.0.setSize = record.staticHash.setSize
        state.indexes.1.stamp = record.dynamicHash.stamp
        state.indexes.1.setSize = record.dynamicHash.setSize
    }

    /// What a capture wrote, as the format's record.
    var record: SpatialHashRecord {
        func index(_ s: CChipmunkHashIndexState, _ t: Int) -> HashIndexRecord {
            let (order, cellIndex, cellStart, cellShape) =
                t == 0
                ? (setOrders.0, cellIndices.0, cellStarts.0, cellShapes.0)
                : (setOrders.1, cellIndices.1, cellStarts.1, cellShapes.1)
            return HashIndexRecord(
                stamp: s.stamp, setSize: s.setSize, setOrder: Array(order),
                cells: cellIndex.indices.map {
                    HashCellRecord(
                        cell: cellIndex[$0], shapes: Array(cellShape[Int(cellStart[$0])..<Int(cellStart[$0 + 1])]))
                })
        }
        return SpatialHashRecord(staticHash: index(state.indexes.0, 0), dynamicHash: index(state.indexes.1, 1))
    }

    deinit {
        for buffer in [setOrders.0, setOrders.1, cellShapes.0, cellShapes.1] { buffer.deallocate() }
        for buffer in [cellIndices.0, cellIndices.1, cellStarts.0, cellStarts.1] { buffer.deallocate() }
    }
}
