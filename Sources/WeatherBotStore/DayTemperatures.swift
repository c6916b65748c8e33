/// A place cell's lowest and highest temperature of one local day, as the latest forecast for that
/// day gave them: what the daily forecast compares today with («Днём на 4 градуса теплее, чем
/// вчера»), kept for a few days only.
public struct DayTemperatures: Sendable, Hashable, Codable {
    /// The cell, as the weather cache keys it (the point to 0.01°: `5579:4912`).
    public var cell: String
    /// The cell's local date, `yyyy-MM-dd`.
    public var day: String
    /// °C.
    public var minimum: Double
    /// °C.
    public var maximum: Double

    /// One day's extremes of one cell, as the daily forecast stores them.
    public init(cell: String, day: String, minimum: Double, maximum: Double) {
        self.cell = cell
        self.day = day
        self.minimum = minimum
        self.maximum = maximum
    }
}
