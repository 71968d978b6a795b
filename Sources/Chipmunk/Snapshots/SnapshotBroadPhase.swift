internal import CChipmunk
internal import CChipmunkRuntime

// The default broad phase's history in a snapshot: the engine's two `cpBBTree` indexes
// (static and dynamic shapes), read and rebuilt by CChipmunkRuntime/BroadPhase.c, which
// mirrors the engine's private structs and checks their layout at start-up. With it, a
// restored space finds its candidate pairs in the uninterrupted run's order, and continues
// with its bits (docs/snapshots.md, "Levels of exactness").

/// Captures, checks and rebuilds ``BroadPhaseRecord``s.
enum SnapshotBroadPhase {
    /// Whether the loaded engine's broad-phase structs have the layout the binding mirrors
    /// (Chipmunk 7.0.3's). Snapshots hold the broad phase only then, and snapshots that
    /// hold it are restored only then.
    static var layoutIsKnown: Bool { CChipmunkBroadPhaseLayoutIsKnown() != 0 }

    /// The record of `space`'s two trees, or nil when the space uses the spatial hash or the
    /// layout is not known.
    static func capture(_ space: Space) -> BroadPhaseRecord? {
        guard space.spatialHash == nil, layoutIsKnown else { return nil }
        let h = space.handle
        var counts = CChipmunkBroadPhaseCounts()
        guard CChipmunkBroadPhaseMeasure(h.pointee.staticShapes, h.pointee.dynamicShapes, &counts) != 0 else {
            return nil
        }
        let shapes = space.shapes.map { UnsafeMutableRawPointer($0.handle) as UnsafeMutableRawPointer? }
        var buffers = StateBuffers(
            leaves: (Int(counts.leaves.0), Int(counts.leaves.1)), pairs: Int(counts.pairs), shapes: shapes.count)
        let captured = shapes.withUnsafeBufferPointer {
            CChipmunkBroadPhaseCapture(
                h.pointee.staticShapes, h.pointee.dynamicShapes, $0.baseAddress, Int32(shapes.count), &buffers.state)
        }
        guard captured != 0 else { return nil }
        return buffers.record
    }

    /// The largest leaf-set table a snapshot may ask for: the engine's tables only grow (a
    /// space that once held many shapes keeps a large one), but each step visits every slot.
    static let setSizeLimit: UInt32 = 1 << 22

    /// Checks a snapshot's broad-phase record against the rest of it, as the engine would
    /// have built it: the static tree holds the shapes of static and sleeping bodies, the
    /// dynamic tree the others; each tree is a full binary tree over exactly those leaves;
    /// each pair is in the lists of its two shapes, once each.
    static func validate(_ s: SnapshotState) throws(SnapshotError) {
        guard let record = s.broadPhase.first else { return }
        func fail(_ message: String) -> SnapshotError { .invalid("the broad phase: " + message) }
        guard s.broadPhase.count == 1 else { throw fail("\(s.broadPhase.count) records, not 1") }
        guard s.space.broadPhase == 0, !s.space.canonicalBroadPhase else {
            throw fail("a tree's history for a space that uses the spatial hash or rebuilt its broad phase")
        }
        let shapeCount = s.shapes.count
        let inStaticTree = staticMembership(s)
        var treeOf = [Int](repeating: -1, count: shapeCount)
        for (t, tree) in [record.staticTree, record.dynamicTree].enumerated() {
            let name = t == 0 ? "static tree" : "dynamic tree"
            let leaves = tree.setOrder.count
            try checkSetOrder(
                tree.setOrder, size: tree.setSize, of: t, in: s, staticMembership: inStaticTree, owner: &treeOf,
                name: name, fail: fail)
            guard tree.nodes.count == max(2 * leaves - 1, 0) else {
                throw fail("the \(name) has \(tree.nodes.count) nodes for \(leaves) leaves")
            }
            var places = 1
            var inTree = [Bool](repeating: false, count: shapeCount)
            for node in tree.nodes {
                guard places > 0 else { throw fail("the \(name)'s nodes are not one tree") }
                // Finite, but not bounded by a coordinate's bound: the tree widens a leaf's
                // box by a tenth of its body's velocity, which may be 1e300 (a scene's
                // initial speed), and keeps the box until the shape leaves it; the space
                // held such a box and its snapshots were refused (found by reading back a
                // snapshot after every step of SceneExtremesTests' variants).
                guard node.box.allSatisfy(\.isFinite) else {
                    throw fail("a box in the \(name) is not finite")
                }
                if node.shape < 0 {
                    guard node.shape == -1, node.stamp == 0 else { throw fail("an internal node of the \(name)") }
                    places += 1
                } else {
                    guard Int(node.shape) < shapeCount, treeOf[Int(node.shape)] == t, !inTree[Int(node.shape)]
                    else { throw fail("the \(name) has a leaf for shape \(node.shape)") }
                    inTree[Int(node.shape)] = true
                    places -= 1
                }
            }
            guard tree.nodes.isEmpty || places == 0 else { throw fail("the \(name)'s nodes are not one tree") }
        }
        guard record.pairLists.count == shapeCount else {
            throw fail("\(record.pairLists.count) pair lists for \(shapeCount) shapes")
        }
        for (k, pair) in record.pairs.enumerated() {
            guard pair.a >= 0, pair.b >= 0, Int(pair.a) < shapeCount, Int(pair.b) < shapeCount, pair.a != pair.b
            else { throw fail("pair \(k) names shapes \(pair.a) and \(pair.b)") }
        }
        var seen = [UInt8](repeating: 0, count: 2 * record.pairs.count)
        for (shape, list) in record.pairLists.enumerated() {
            for k in list.pairs {
                guard k >= 0, Int(k) < record.pairs.count else { throw fail("shape \(shape) lists pair \(k)") }
                let pair = record.pairs[Int(k)]
                let side = pair.a == shape ? 0 : pair.b == shape ? 1 : -1
                guard side >= 0, seen[2 * Int(k) + side] == 0 else {
                    throw fail("shape \(shape) lists pair \(k), which is not its own or is listed twice")
                }
                seen[2 * Int(k) + side] = 1
            }
        }
        guard seen.allSatisfy({ $0 == 1 }) else { throw fail("a pair is missing from one of its shapes' lists") }
        // What the engine's marking pass assumes (cpBBTree.c). Every pair joins two shapes
        // once: a second pair of the same two found their arbiter twice in one step, and the
        // engine aborted ("Dangling contact graph pointers detected"). The second shape of a
        // pair is in the dynamic tree, whose leaves run their pairs' collisions.
        var joined = Set<UInt64>(minimumCapacity: record.pairs.count)
        for (k, pair) in record.pairs.enumerated() {
            let (low, high) = (UInt64(min(pair.a, pair.b)), UInt64(max(pair.a, pair.b)))
            guard joined.insert(low << 32 | high).inserted else {
                throw fail("pair \(k) joins shapes \(pair.a) and \(pair.b), as an earlier pair does")
            }
            guard treeOf[Int(pair.b)] == 1 else {
                throw fail("pair \(k)'s second shape \(pair.b) is not in the dynamic tree")
            }
        }
        // Every leaf's stamp is below the dynamic tree's, which both trees advance: a leaf
        // stamped with it counts as moved in this step, and the marking pass paired it again
        // beside the pairs it still had (the same abort).
        let stamp = record.dynamicTree.stamp
        for (t, tree) in [record.staticTree, record.dynamicTree].enumerated() {
            for node in tree.nodes where node.shape >= 0 && node.stamp >= stamp {
                throw fail(
                    "shape \(node.shape)'s leaf in the \(t == 0 ? "static" : "dynamic") tree has stamp "
                        + "\(node.stamp), not below the tree's \(stamp)")
            }
        }
    }

    /// Whether each shape belongs in the static index: the engine keeps the shapes of
    /// static and sleeping bodies there.
    static func staticMembership(_ s: SnapshotState) -> [Bool] {
        s.shapes.map { s.bodies[Int($0.body)].kind == 2 || s.bodies[Int($0.body)].sleepingRoot >= 0 }
    }

    /// Checks the order an index's hash set visits its shapes in: exactly the shapes that
    /// belong in index `t` (0 static, 1 dynamic), each once, in the order of their slots
    /// (the shape's id modulo `size`, which must exceed their number), as the set visits
    /// them; records each shape's index in `owner`.
    static func checkSetOrder(
        _ order: [Int32], size: UInt32, of t: Int, in s: SnapshotState, staticMembership: [Bool],
        owner: inout [Int], name: String, fail: (String) -> SnapshotError
    ) throws(SnapshotError) {
        let expected = staticMembership.count { $0 == (t == 0) }
        guard order.count == expected else {
            throw fail("the \(name) has \(order.count) shapes, not the \(expected) it holds")
        }
        guard size > UInt32(order.count), size <= max(setSizeLimit, 4 * UInt32(order.count)) else {
            throw fail("the \(name)'s set has \(size) slots for \(order.count) shapes")
        }
        var previousSlot: UInt64 = 0
        for shape in order {
            guard shape >= 0, Int(shape) < s.shapes.count, staticMembership[Int(shape)] == (t == 0),
                owner[Int(shape)] == -1
            else { throw fail("the \(name)'s set names shape \(shape)") }
            owner[Int(shape)] = t
            let slot = s.shapes[Int(shape)].hashID % UInt64(size)
            guard slot >= previousSlot else { throw fail("the \(name)'s set is out of order") }
            previousSlot = slot
        }
    }

    /// Makes the space's two trees (just built with the snapshot's shapes) the record's.
    /// The record has passed ``validate(_:)``.
    static func restore(_ record: BroadPhaseRecord, into space: Space) {
        let h = space.handle
        let shapes = space.shapes.map { UnsafeMutableRawPointer($0.handle) as UnsafeMutableRawPointer? }
        var buffers = StateBuffers(record)
        let restored = shapes.withUnsafeBufferPointer {
            CChipmunkBroadPhaseRestore(
                h.pointee.staticShapes, h.pointee.dynamicShapes, $0.baseAddress, Int32(shapes.count), &buffers.state)
        }
        // The C side checks everything again before it changes anything; after `validate`
        // only running out of memory makes it refuse.
        ensure(restored != 0, "Space.restore(_:): could not rebuild the broad phase (out of memory)")
    }
}

/// The arrays of a `CChipmunkBroadPhaseState`, allocated for one capture or restore, and
/// the state pointing into them.
private struct StateBuffers: ~Copyable {
    private let nodes: (UnsafeMutableBufferPointer<CChipmunkTreeNode>, UnsafeMutableBufferPointer<CChipmunkTreeNode>)
    private let setOrders: (UnsafeMutableBufferPointer<Int32>, UnsafeMutableBufferPointer<Int32>)
    private let pairs: UnsafeMutableBufferPointer<CChipmunkTreePair>
    private let lists: UnsafeMutableBufferPointer<Int32>
    private let starts: UnsafeMutableBufferPointer<UInt32>
    var state: CChipmunkBroadPhaseState

    /// Empty arrays of the measured sizes, for a capture.
    init(leaves: (Int, Int), pairs pairCount: Int, shapes: Int) {
        func tree(_ leaves: Int) -> (UnsafeMutableBufferPointer<CChipmunkTreeNode>, UnsafeMutableBufferPointer<Int32>) {
            let nodes = UnsafeMutableBufferPointer<CChipmunkTreeNode>.allocate(capacity: max(2 * leaves - 1, 0))
            nodes.initialize(repeating: CChipmunkTreeNode())
            let order = UnsafeMutableBufferPointer<Int32>.allocate(capacity: leaves)
            order.initialize(repeating: 0)
            return (nodes, order)
        }
        let (staticTree, dynamicTree) = (tree(leaves.0), tree(leaves.1))
        nodes = (staticTree.0, dynamicTree.0)
        setOrders = (staticTree.1, dynamicTree.1)
        pairs = .allocate(capacity: pairCount)
        pairs.initialize(repeating: CChipmunkTreePair())
        lists = .allocate(capacity: 2 * pairCount)
        lists.initialize(repeating: 0)
        starts = .allocate(capacity: shapes + 1)
        starts.initialize(repeating: 0)
        state = CChipmunkBroadPhaseState(
            trees: (
                CChipmunkTreeState(
                    stamp: 0, setSize: 0, leafCount: UInt32(leaves.0), nodes: nodes.0.baseAddress,
                    setOrder: setOrders.0.baseAddress),
                CChipmunkTreeState(
                    stamp: 0, setSize: 0, leafCount: UInt32(leaves.1), nodes: nodes.1.baseAddress,
                    setOrder: setOrders.1.baseAddress)
            ),
            pairCount: UInt32(pairCount), pairs: pairs.baseAddress, pairLists: lists.baseAddress,
            pairListStart: starts.baseAddress)
    }

    /// The arrays of a record, for a restore.
    init(_ record: BroadPhaseRecord) {
        self.init(
            leaves: (record.staticTree.setOrder.count, record.dynamicTree.setOrder.count), pairs: record.pairs.count,
            shapes: record.pairLists.count)
        for (t, tree) in [record.staticTree, record.dynamicTree].enumerated() {
            let (nodes, order) = t == 0 ? (nodes.0, setOrders.0) : (nodes.1, setOrders.1)
            for (i, node) in tree.nodes.enumerated() {
                nodes[i] = CChipmunkTreeNode(
                    shape: node.shape, stamp: node.stamp, bb: (node.left, node.bottom, node.right, node.top))
            }
            for (i, shape) in tree.setOrder.enumerated() { order[i] = shape }
        }
        state.trees.0.stamp = record.staticTree.stamp
        state.trees.0.setSize = record.staticTree.setSize
        state.trees.1.stamp = record.dynamicTree.stamp
        state.trees.1.setSize = record.dynamicTree.setSize
        for (k, pair) in record.pairs.enumerated() { pairs[k] = CChipmunkTreePair(a: pair.a, b: pair.b, id: pair.id) }
        var written = 0
        for (s, list) in record.pairLists.enumerated() {
            starts[s] = UInt32(written)
            for k in list.pairs {
                lists[written] = k
                written += 1
            }
        }
        starts[record.pairLists.count] = UInt32(written)
    }

    /// What a capture wrote, as the format's record.
    var record: BroadPhaseRecord {
        func tree(
            _ t: CChipmunkTreeState, _ nodes: UnsafeMutableBufferPointer<CChipmunkTreeNode>,
            _ order: UnsafeMutableBufferPointer<Int32>
        ) -> TreeRecord {
            TreeRecord(
                stamp: t.stamp, setSize: t.setSize, setOrder: Array(order),
                nodes: nodes.map {
                    TreeNodeRecord(
                        shape: $0.shape, stamp: $0.stamp, left: $0.bb.0, bottom: $0.bb.1, right: $0.bb.2, top: $0.bb.3)
                })
        }
        return BroadPhaseRecord(
            staticTree: tree(state.trees.0, nodes.0, setOrders.0),
            dynamicTree: tree(state.trees.1, nodes.1, setOrders.1),
            pairs: pairs.map { TreePairRecord(a: $0.a, b: $0.b, id: $0.id) },
            pairLists: (0..<(starts.count - 1)).map {
                PairListRecord(pairs: Array(lists[Int(starts[$0])..<Int(starts[$0 + 1])]))
            })
    }

    deinit {
        for buffer in [nodes.0, nodes.1] { buffer.deallocate() }
        for buffer in [setOrders.0, setOrders.1, lists] { buffer.deallocate() }
        pairs.deallocate()
        starts.deallocate()
    }
}
