#pragma once
// Slides for a meeting (issue 40, item 7): a 16:9 page with a title, a few lines under it (the
// question and its answer), one body (a chart, a page of the explorer as it is on screen, or a
// table of the texts a page shows) and a footer with the assumptions. A Slide is a
// ChartRenderable, so export_chart() writes it as PNG, SVG or PDF and copy_chart_to_clipboard()
// copies it. Every text wraps; none is cut or elided: a table that is too wide gets a smaller
// font or wraps its widest column, whichever keeps the larger font.
//
// with_footer() is the footer alone: a chart with its assumptions under it, for every chart
// export.

#include <QPointer>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "export/chart_renderable.hpp"

namespace comet::ui {

// Logical size of a slide: 16:9, the size presentation software calls "widescreen".
inline constexpr QSize slide_size{1920, 1080};

struct SlideTable {
    QStringList headers;
    std::vector<QStringList> rows;  // each as long as headers (shorter rows are padded)
    int highlighted_row = -1;       // drawn bold on a tint (the winner); -1 none
    // A row whose text at column `first` takes `count` columns (a design that cannot run: its
    // reason across the result columns). The other cells of the span are not drawn.
    struct Span {
        int row = 0, first = 0, count = 1;
    };
    std::vector<Span> spans;
};

class Slide : public ChartRenderable {
public:
    QString title;
    QStringList lines;  // under the title, each wrapped to the slide's width
    // The body, the first that is set: a chart, a widget (painted as it is on screen, scaled to
    // fit), a table. None: the lines take the page.
    const ChartRenderable* chart = nullptr;
    QPointer<QWidget> widget;
    std::optional<SlideTable> table;
    QString footer;  // the assumptions (assumptions_line())

    void render(QPainter& p, QSizeF size) const override;
    [[nodiscard]] QString exportTitle() const override { return title; }
    [[nodiscard]] QSize preferredExportSize() const override { return slide_size; }
};

// Height (logical px) the footer text takes on a `page` of that size, wrapped, with its margins;
// 0 for no text. Export uses it to give the chart the rest. Its font grows with the page
// (11 to 20 px). `side_margin` as paint_footer()'s.
[[nodiscard]] double footer_height(const QString& footer, QSizeF page, double side_margin = 0);
// Paints `footer` wrapped at the bottom of a `size` page (grey, small), `side_margin` from the
// left and right edges (0: a margin that grows with the font).
void paint_footer(QPainter& p, QSizeF size, const QString& footer, double side_margin = 0);

}  // namespace comet::ui
