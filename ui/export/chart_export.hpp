#pragma once
// One export path for every chart and the heatmap: PNG, SVG and PDF files and the clipboard.
// It only sees ChartRenderable, so it does not depend on the chart library.

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>

#include "export/chart_renderable.hpp"

namespace comet::ui {

// Limits of ExportOptions; outside them export_chart refuses with a message.
inline constexpr int export_min_px = 100;
inline constexpr int export_max_px = 10000;
inline constexpr double export_min_dpi = 48;
inline constexpr double export_max_dpi = 1200;
// A PNG larger than this (size * dpi / 96 squared) would need gigabytes of memory.
inline constexpr double export_max_megapixels = 250;
// Logical pixels per inch: 1 px of the chart is 1/96 in on paper, as in CSS.
inline constexpr double export_px_per_inch = 96;

enum class ExportFormat { png, svg, pdf };

struct ExportOptions {
    QSize size;           // logical px; empty = the chart's preferredExportSize()
    double dpi = 192;     // PNG only: pixels = size * dpi / 96, and the DPI stored in the file
    QString title;        // SVG and PDF document title; empty = the chart's exportTitle()
    QString description;  // SVG only, e.g. a text summary of the data; empty = a generic line
    // What the chart assumes (model, batch, precision, software, hardware: assumptions_line()),
    // printed wrapped under the chart inside `size`; empty = no footer.
    QString footer;
};

// Writes the chart to `path` in the format its extension names (.png, .svg, .pdf, any case).
// Returns an empty string on success, otherwise why not, naming the offending value. The file
// is written to a temporary file beside it and renamed, so a failed export leaves any existing
// file at `path` as it was.
[[nodiscard]] QString export_chart(const ChartRenderable& chart, const QString& path, const ExportOptions& options = {});
// The same with the format given, whatever the extension.
[[nodiscard]] QString export_chart(const ChartRenderable& chart, const QString& path, ExportFormat format,
                                   const ExportOptions& options = {});

// The chart on white at size * dpi / 96 pixels, with that device pixel ratio and the DPI set
// (QImage::dotsPerMeterX/Y). Null when the image cannot be allocated.
[[nodiscard]] QImage render_chart_image(const ChartRenderable& chart, QSize size, double dpi);

// Puts the chart on the clipboard as an image at twice `size` (empty = preferredExportSize()),
// so that it stays sharp when pasted into slides on high-DPI screens; with `footer` under it.
void copy_chart_to_clipboard(const ChartRenderable& chart, QSize size = {}, const QString& footer = {});

// Name filters for QFileDialog, in the order PNG, SVG, PDF.
[[nodiscard]] QStringList chart_export_filters();
// A file name typed without an extension gets the one of the filter chosen in the dialog
// ("PNG image (*.png)" -> ".png"); a name with one keeps it.
[[nodiscard]] QString with_filter_extension(const QString& path, const QString& selected_filter);

}  // namespace comet::ui
