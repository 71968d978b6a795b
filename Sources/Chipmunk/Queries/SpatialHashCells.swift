internal import CChipmunk

// The engine's spatial hash visits every cell a shape's bounding box covers, each step for
// a moving shape, and every cell a query's box or segment covers. Nothing bounds that
// count: a cell size of 1e-300 hung the first step, 0.01 hung adding a 1000-wide box, and
// a segment query from -1e12 on cells of size 1 walked 2e12 cells. Here shapes that would
// cover too many cells are refused, and queries that would walk too many test each shape
// instead, which gives the engine's answer (in the order of `Space.shapes`).

extension Space {
    /// The most cells of the spatial hash one shape may cover, and one query may walk
    /// before the query tests each shape directly instead.
    public static let maxSpatialHashCells = 1_000_000

    /// Throws unless `shape` fits this space's spatial hash: with the hash
    /// (``useSpatialHash(cellSize:count:)``), a shape may cover at most
    /// ``maxSpatialHashCells`` cells, counted for a moving shape in any rotation. With the
    /// engine's tree, every shape fits. The check for shapes that arrive as data; adding a
    /// shape that does not fit is a programming error.
    ///
    /// - Throws: ``ChipmunkError/tooManyHashCells(cells:cellSize:)``.
    public func checkSpatialHashFit(of shape: Shape) throws(ChipmunkError) {
        guard let cellSize = spatialHash?.cellSize else { return }
        let cells = Self.hashCells(of: shape, cellSize: cellSize)
        guard cells <= Double(Self.maxSpatialHashCells) else {
            throw .tooManyHashCells(cells: cells, cellSize: cellSize)
        }
    }

    /// Stops unless `shape` fits the spatial hash of cell size `cellSize` (see ``checkSpatialHashFit(of:)``).
    func requireSpatialHashFit(of shape: Shape, cellSize: Double, _ function: String) {
        let cells = Self.hashCells(of: shape, cellSize: cellSize)
        if cells > Double(Self.maxSpatialHashCells) {
            stop("\(function): this shape \(ChipmunkError.tooManyHashCells(cells: cells, cellSize: cellSize))")
        }
    }

    /// The cells a shape covers: a static shape where it is; a moving one in any rotation,
    /// as a square as wide as its bounding box's diagonal.
    static func hashCells(of shape: Shape, cellSize: Double) -> Double {
        hashCells(of: cpShapeCacheBB(shape.handle), onStaticBody: shape.body.kind == .static, cellSize: cellSize)
    }

    /// The cells a shape with bounding box `box` covers, counted as ``hashCells(of:cellSize:)``
    /// counts them: where it is on a static body, else in any rotation.
    static func hashCells(of box: cpBB, onStaticBody: Bool, cellSize: Double) -> Double {
        if onStaticBody || hashCells(covering: box, cellSize: cellSize).isInfinite {
            return hashCells(covering: box, cellSize: cellSize)
        }
        let side = ((box.r - box.l) * (box.r - box.l) + (box.t - box.b) * (box.t - box.b)).squareRoot()
        let perSide = side / cellSize + 2
        return perSide * perSide
    }

    /// The cells a box covers, counted as the engine's hash counts them: infinitely many when
    /// the box is past 2^30 cells from the origin, where the engine's `int` cell indices
    /// overflow, or NaN.
    static func hashCells(covering box: cpBB, cellSize: Double) -> Double {
        let bound = hashPositionBound(cellSize: cellSize)
        guard abs(box.l) <= bound, abs(box.r) <= bound, abs(box.b) <= bound, abs(box.t) <= bound else {
            return .infinity
        }
        let columns = (box.r / cellSize).rounded(.down) - (box.l / cellSize).rounded(.down) + 1
        let rows = (box.t / cellSize).rounded(.down) - (box.b / cellSize).rounded(.down) + 1
        let cells = columns * rows
        return cells.isNaN ? .infinity : cells
    }

    /// Whether a query over `box` should test each shape rather than walk the hash's cells.
    func queryScansShapes(_ box: cpBB) -> Bool {
        guard let cellSize = spatialHash?.cellSize else { return false }
        return Self.hashCells(covering: box, cellSize: cellSize) > Double(Self.maxSpatialHashCells)
    }

    /// Whether a segment query should test each shape rather than walk the hash's cells:
    /// the engine steps from cell to cell along the segment.
    func segmentQueryScansShapes(from start: Vector, to end: Vector) -> Bool {
        guard let cellSize = spatialHash?.cellSize else { return false }
        let bound = Self.hashPositionBound(cellSize: cellSize)
        guard abs(start.x) <= bound, abs(start.y) <= bound, abs(end.x) <= bound, abs(end.y) <= bound else {
            return true
        }
        let steps =
            abs((end.x / cellSize).rounded(.down) - (start.x / cellSize).rounded(.down))
            + abs((end.y / cellSize).rounded(.down) - (start.y / cellSize).rounded(.down)) + 1
        return !(steps <= Double(Self.maxSpatialHashCells))
    }

    /// The shapes the engine's index holds that `filter` lets through, in the order of ``shapes``.
    func indexedShapes(passing filter: ShapeFilter, sensors: Bool) -> [Shape] {
        shapes.filter {
            $0.cSpace === cSpace && cpShapeFilterReject($0.handle.pointee.filter, filter.cp) == 0
                && (sensors || !$0.isSensor)
        }
    }
}
