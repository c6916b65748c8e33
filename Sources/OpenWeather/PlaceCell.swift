/// A place cell: a point rounded to 0.01° (about 1 km). Places in one cell share one weather
/// fetch, one cached forecast, one rain episode and one set of warnings, so everything that
/// groups places by their weather keys them by this.
public struct PlaceCell: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Hundredths of a degree.
    public let latitude: Int
    /// Hundredths of a degree, rounded.
    public let longitude: Int

    /// The cell holding the point, each coordinate (degrees) rounded to the nearest hundredth.
    public init(latitude: Double, longitude: Double) {
        self.latitude = Int((latitude * 100).rounded())
        self.longitude = Int((longitude * 100).rounded())
    }

    /// The cell as it is stored and written into marks: `5418:4517`. Kept in this form for good:
    /// day temperatures, rain marks and warning marks saved under it must keep their meaning.
    public var key: String { "\(latitude):\(longitude)" }

    /// The stored ``key``, as logs show cells.
    public var description: String { key }

    /// By the stored key, so an order of cells is the same in every run.
    public static func < (lhs: PlaceCell, rhs: PlaceCell) -> Bool { lhs.key < rhs.key }
}
