/// A progress bar shared by concurrent job completions.
actor BenchProgressBox {
    private var bar: BenchProgressBar
    init(_ bar: BenchProgressBar) { self.bar = bar }
    func update(_ fraction: Double, label: String, detail: String = "") { bar.update(fraction, label: label, detail: detail) }
    func finish(_ message: String) { bar.finish(message) }
}
