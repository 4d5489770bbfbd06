#include "export/chart_export.hpp"

#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScreen>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <utility>
#include <optional>

#include "export/slide.hpp"

namespace comet::ui {
namespace {

constexpr double inch_m = 0.0254;
constexpr double clipboard_dpi = 2 * export_px_per_inch;  // 2x, sharp on high-DPI screens
constexpr QLatin1String allowed_types(".png, .svg or .pdf");

// The DPI that chart fonts (given in points) were measured at while laying out. Painting on a
// device with the same logical DPI keeps the text exactly as wide as the layout expected.
double layout_dpi() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? std::round(screen->logicalDotsPerInchY()) : export_px_per_inch;
}

// A chart with its assumptions under it: the chart gets the size less the footer's height.
class Footed : public ChartRenderable {
public:
    Footed(const ChartRenderable& chart, QString footer) : chart_(chart), footer_(std::move(footer)) {}
    void render(QPainter& p, QSizeF size) const override {
        const double h = footer_height(footer_, size);
        const QSizeF chart_size(size.width(), std::max(1.0, size.height() - h));
        p.save();
        p.setClipRect(QRectF(QPointF(0, 0), chart_size));
        chart_.render(p, chart_size);
        p.restore();
        paint_footer(p, size, footer_);
    }
    [[nodiscard]] QString exportTitle() const override { return chart_.exportTitle(); }
    [[nodiscard]] QSize preferredExportSize() const override { return chart_.preferredExportSize(); }

private:
    const ChartRenderable& chart_;
    QString footer_;
};

int dots_per_meter(double dpi) { return static_cast<int>(std::lround(dpi / inch_m)); }

QSize pixel_size(QSize logical, double dpi) {
    const double scale = dpi / export_px_per_inch;
    return {static_cast<int>(std::lround(logical.width() * scale)), static_cast<int>(std::lround(logical.height() * scale))};
}

std::optional<ExportFormat> format_of(const QString& path) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext == QLatin1String("png")) return ExportFormat::png;
    if (ext == QLatin1String("svg")) return ExportFormat::svg;
    if (ext == QLatin1String("pdf")) return ExportFormat::pdf;
    return std::nullopt;
}

QString unknown_type(const QString& path) {
    const QString ext = QFileInfo(path).suffix();
    if (ext.isEmpty()) return QStringLiteral("%1 has no file extension: use ").arg(path) + allowed_types;
    return QStringLiteral("Unknown file type \".%1\" (%2): use ").arg(ext, path) + allowed_types;
}

QString check_options(QSize size, double dpi, ExportFormat format) {
    const auto px_ok = [](int v) { return v >= export_min_px && v <= export_max_px; };
    if (!px_ok(size.width()) || !px_ok(size.height()))
        return QStringLiteral("Export size %1 x %2 px is outside the allowed %3..%4 px")
            .arg(size.width())
            .arg(size.height())
            .arg(export_min_px)
            .arg(export_max_px);
    if (!(dpi >= export_min_dpi && dpi <= export_max_dpi))
        return QStringLiteral("Export resolution %1 dpi is outside the allowed %2..%3 dpi")
            .arg(dpi)
            .arg(export_min_dpi)
            .arg(export_max_dpi);
    const QSize px = pixel_size(size, dpi);
    const double megapixels = static_cast<double>(px.width()) * px.height() / 1e6;
    if (format == ExportFormat::png && megapixels > export_max_megapixels)
        return QStringLiteral(
                   "A PNG of %1 x %2 pixels (%3 megapixels) is too large, at most %4 megapixels: "
                   "lower the size or the dpi")
            .arg(px.width())
            .arg(px.height())
            .arg(megapixels, 0, 'f', 0)
            .arg(export_max_megapixels);
    return {};
}

QString cannot_write(const QString& path, const QString& reason) { return QStringLiteral("Cannot write %1: %2").arg(path, reason); }

// Vector devices get the layout DPI as their resolution, so that 1 logical px is one device
// unit and point-sized fonts come out as wide as they were measured.
QString write_svg(const ChartRenderable& chart, QIODevice& out, QSize size, const QString& title, const QString& description) {
    QSvgGenerator svg;
    svg.setOutputDevice(&out);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(static_cast<int>(layout_dpi()));
    svg.setTitle(title);
    svg.setDescription(description.isEmpty() ? QStringLiteral("Chart exported by COMET Explorer") : description);
    QPainter painter;
    if (!painter.begin(&svg)) return QStringLiteral("Cannot start an SVG document");
    chart.render(painter, QSizeF(size));
    return painter.end() ? QString() : QStringLiteral("Cannot finish the SVG document");
}

QString write_pdf(const ChartRenderable& chart, QIODevice& out, QSize size, const QString& title) {
    const double dpi = layout_dpi();
    QPdfWriter pdf(&out);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("COMET Explorer"));
    pdf.setResolution(static_cast<int>(dpi));
    // One page exactly the chart's size: QChartView-style rendering into a paper page would
    // keep the aspect ratio and leave margins.
    pdf.setPageSize(QPageSize(QSizeF(size) / dpi, QPageSize::Inch, title, QPageSize::ExactMatch));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter;
    if (!painter.begin(&pdf)) return QStringLiteral("Cannot start a PDF document");
    chart.render(painter, QSizeF(size));
    return painter.end() ? QString() : QStringLiteral("Cannot finish the PDF document");
}

QString write_png(const ChartRenderable& chart, QIODevice& out, QSize size, double dpi) {
    const QImage image = render_chart_image(chart, size, dpi);
    if (image.isNull()) {
        const QSize px = pixel_size(size, dpi);
        return QStringLiteral("Not enough memory for a %1 x %2 pixel image").arg(px.width()).arg(px.height());
    }
    return image.save(&out, "PNG") ? QString() : QStringLiteral("Cannot encode the PNG image");
}

}  // namespace

QString export_chart(const ChartRenderable& chart, const QString& path, const ExportOptions& options) {
    const std::optional<ExportFormat> format = format_of(path);
    if (!format) return unknown_type(path);
    return export_chart(chart, path, *format, options);
}

QString export_chart(const ChartRenderable& chart_in, const QString& path, ExportFormat format, const ExportOptions& options) {
    const Footed footed(chart_in, options.footer);
    const ChartRenderable& chart = options.footer.isEmpty() ? chart_in : footed;
    const QSize size = options.size.isEmpty() ? chart.preferredExportSize() : options.size;
    if (QString why = check_options(size, options.dpi, format); !why.isEmpty()) return why;
    // QSaveFile writes to a temporary file beside `path` and renames it on commit(); an error on
    // the way discards it and leaves whatever was at `path`.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return cannot_write(path, file.errorString());
    const QString title = options.title.isEmpty() ? chart.exportTitle() : options.title;
    QString why;
    switch (format) {
        case ExportFormat::png:
            why = write_png(chart, file, size, options.dpi);
            break;
        case ExportFormat::svg:
            why = write_svg(chart, file, size, title, options.description);
            break;
        case ExportFormat::pdf:
            why = write_pdf(chart, file, size, title);
            break;
    }
    if (!why.isEmpty()) {
        file.cancelWriting();
        return cannot_write(path, why);
    }
    if (!file.commit()) return cannot_write(path, file.errorString());
    return {};
}

QImage render_chart_image(const ChartRenderable& chart, QSize size, double dpi) {
    QImage image(pixel_size(size, dpi), QImage::Format_RGB32);
    if (image.isNull()) return image;
    // Fonts are sized by the image's DPI: keep the layout's while painting, then record the
    // export DPI for the file. The scaling is the painter's, not the device pixel ratio's,
    // since QPainter ignores ratios below 1 (exports under 96 dpi).
    const double scale = dpi / export_px_per_inch;
    image.setDotsPerMeterX(dots_per_meter(layout_dpi()));
    image.setDotsPerMeterY(dots_per_meter(layout_dpi()));
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
        painter.scale(scale, scale);
        chart.render(painter, QSizeF(size));
    }
    image.setDevicePixelRatio(scale);
    image.setDotsPerMeterX(dots_per_meter(dpi));
    image.setDotsPerMeterY(dots_per_meter(dpi));
    return image;
}

void copy_chart_to_clipboard(const ChartRenderable& chart_in, QSize size, const QString& footer) {
    const Footed footed(chart_in, footer);
    const ChartRenderable& chart = footer.isEmpty() ? chart_in : footed;
    const QImage image = render_chart_image(chart, size.isEmpty() ? chart.preferredExportSize() : size, clipboard_dpi);
    if (!image.isNull()) QGuiApplication::clipboard()->setImage(image);
}

QString with_filter_extension(const QString& path, const QString& selected_filter) {
    if (path.isEmpty() || !QFileInfo(path).suffix().isEmpty()) return path;
    const qsizetype star = selected_filter.indexOf(QStringLiteral("*."));
    if (star < 0) return path;
    const qsizetype close = selected_filter.indexOf(QLatin1Char(')'), star);
    return path + QStringView(selected_filter).mid(star + 1, (close < 0 ? selected_filter.size() : close) - star - 1);
}

QStringList chart_export_filters() {
    return {QStringLiteral("PNG image (*.png)"), QStringLiteral("SVG vector image (*.svg)"), QStringLiteral("PDF document (*.pdf)")};
}

}  // namespace comet::ui
