internal import CCairo
import Chipmunk
import Foundation

/// A frame drawn by Cairo into pixels: 8-bit RGBA, row by row from the top.
public struct FrameImage: Sendable {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// Premultiplied ARGB, as Cairo stores it, one `UInt32` a pixel.
    let pixels: [UInt32]
    /// The PNG file's bytes.
    public let png: [UInt8]

    /// The colour at a pixel (0-255 each; alpha is 255 everywhere, the background is white).
    package func color(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let value = pixels[y * width + x]
        return (UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff))
    }
}

extension FrameImage {
    /// A PNG file read through Cairo, such as a browser's screenshot, to compare with a
    /// frame drawn here.
    package init(contentsOfPNG path: String) throws(FrameImageError) {
        guard let surface = cairo_image_surface_create_from_png(path),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw FrameImageError(description: "\(path) is not a PNG file Cairo can read")
        }
        defer { cairo_surface_destroy(surface) }
        let (width, height, pixels) = Self.pixels(of: surface)
        self.init(width: width, height: height, pixels: pixels, png: [])
    }

    /// Cairo's pixels, row by row, without the stride's padding.
    fileprivate static func pixels(of surface: OpaquePointer) -> (Int, Int, [UInt32]) {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return (0, 0, []) }
        var pixels = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<width { pixels[row * width + column] = line[column] }
        }
        return (width, height, pixels)
    }
}

/// Why a PNG could not be made.
public struct FrameImageError: Error, CustomStringConvertible {
    /// What went wrong, in one line.
    public var description: String
}

extension Frame {
    /// The frame drawn by Cairo at `pixelWidth` wide (height from the view), y up, the same
    /// picture as ``svg(view:pixelWidth:)``.
    public func png(view: FrameView, pixelWidth: Int = 640) throws(FrameImageError) -> FrameImage {
        let scale = Double(pixelWidth) / view.width
        let width = max(pixelWidth, 1)
        let height = max(1, Int((view.height * scale).rounded()))
        guard width <= 20_000, height <= 20_000 else {
            throw FrameImageError(
                description: "a \(width)×\(height) picture is too large (at most 20000 pixels a side)")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { throw FrameImageError(description: "Cairo could not make a \(width)×\(height) surface") }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }

        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        // World to pixels: y flipped, so up is up.
        if view.yPointsDown {
            cairo_translate(cr, -view.x * scale, -view.y * scale)
            cairo_scale(cr, scale, scale)
        } else {
            cairo_translate(cr, -view.x * scale, (view.y + view.height) * scale)
            cairo_scale(cr, scale, -scale)
        }
        let hairline = 1 / scale
        cairo_set_line_width(cr, hairline)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)

        func source(_ color: DebugColor) {
            cairo_set_source_rgba(cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
        }
        func fillAndStroke(fill: DebugColor, outline: DebugColor) {
            source(fill)
            cairo_fill_preserve(cr)
            source(outline)
            cairo_stroke(cr)
        }
        for primitive in primitives {
            switch primitive {
            case let .circle(c, angle, r, outline, fill):
                cairo_new_path(cr)
                cairo_arc(cr, c.x, c.y, r, 0, 2 * .pi)
                fillAndStroke(fill: fill, outline: outline)
                cairo_move_to(cr, c.x, c.y)
                cairo_line_to(cr, c.x + cos(angle) * r, c.y + sin(angle) * r)
                source(outline)
                cairo_stroke(cr)
            case let .segment(a, b, color):
                cairo_move_to(cr, a.x, a.y)
                cairo_line_to(cr, b.x, b.y)
                source(color)
                cairo_stroke(cr)
            case let .fatSegment(a, b, r, outline, fill):
                for (color, extra) in [(outline, hairline), (fill, 0.0)] {
                    cairo_set_line_width(cr, max(2 * r + 2 * extra, hairline))
                    cairo_move_to(cr, a.x, a.y)
                    cairo_line_to(cr, b.x, b.y)
                    source(color)
                    cairo_stroke(cr)
                }
                cairo_set_line_width(cr, hairline)
            case let .polygon(vertices, r, outline, fill):
                guard let first = vertices.first else { continue }
                cairo_new_path(cr)
                cairo_move_to(cr, first.x, first.y)
                for v in vertices.dropFirst() { cairo_line_to(cr, v.x, v.y) }
                cairo_close_path(cr)
                if r > 0 {
                    cairo_set_line_width(cr, 2 * r)
                    source(fill)
                    cairo_stroke_preserve(cr)
                    cairo_set_line_width(cr, hairline)
                }
                fillAndStroke(fill: fill, outline: outline)
            case let .dot(size, p, color):
                cairo_new_path(cr)
                cairo_arc(cr, p.x, p.y, max(size / 2, 1) * hairline, 0, 2 * .pi)
                source(color)
                cairo_fill(cr)
            }
        }
        let (_, _, pixels) = FrameImage.pixels(of: surface)
        var png: [UInt8] = []
        let status = withUnsafeMutablePointer(to: &png) { bytes in
            cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    let output = closure!.assumingMemoryBound(to: [UInt8].self)
                    output.pointee.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, bytes)
        }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw FrameImageError(description: "Cairo could not encode the PNG (status \(status.rawValue))")
        }
        return FrameImage(width: width, height: height, pixels: pixels, png: png)
    }
}
