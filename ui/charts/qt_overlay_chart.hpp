#pragma once
// Private to the Qt Charts implementation: what every chart of the app shares. The look (white,
// 10 pt and up, no animation), the title with an optional suffix, a message instead of data
// ("No data"), and a legend drawn as overlay items because Qt Charts' legend cannot wrap in
// narrow panes nor show hatched or bare-text entries.

#include <QChart>
#include <QChartView>
#include <QColor>
#include <QFont>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QGraphicsPathItem;
class QGraphicsSimpleTextItem;

namespace comet::ui {

// Overlay items carry this key, so tests can find the legend among the chart's child items.
inline constexpr int overlay_role_key = 0;
inline const QString legend_role = QStringLiteral("legend");
inline const QColor chart_text_color{0x20, 0x20, 0x20};
inline constexpr qreal overlay_z = 50;
inline constexpr qreal label_padding = 4;  // px between a label and what it labels

// At least 10 pt everywhere so that projected charts stay legible.
[[nodiscard]] QFont chart_font(qreal point_size, bool bold = false);

// White or near-black, whichever contrasts more with `fill` (WCAG relative luminance).
[[nodiscard]] QColor readable_text_on(const QColor& fill);

// Category-axis labels: bottom row first (as Qt Charts counts), each shortened to a share of
// the chart width once the chart is laid out, duplicates kept apart.
// `share`: of the chart's width a label line may take (Qt Charts truncates wider axis labels).
// `wrap_only`: as many lines as it takes, never elided (the chart then needs rows tall enough);
// else up to `max_lines` lines, the last elided. No line is wider than max_category_label_width().
[[nodiscard]] QStringList category_labels(const std::vector<QString>& top_first, const QFont& font, qreal chart_width, qreal share = 0.3,
                                          bool wrap_only = false, int max_lines = 3);

// The widest line a category label on a left axis can have in a chart `chart_width` wide (with the
// margins every OverlayChart has) before Qt Charts cuts it with "...".
[[nodiscard]] qreal max_category_label_width(qreal chart_width);

// The box Qt Charts measures an axis label (rich text, "<br>" between lines) by, and cuts it
// with "..." when it exceeds the label's room.
[[nodiscard]] QSizeF axis_label_box(const QString& html, const QFont& font);

class OverlayChart : public QChart {
public:
    OverlayChart();
    ~OverlayChart() override;
    OverlayChart(const OverlayChart&) = delete;
    OverlayChart& operator=(const OverlayChart&) = delete;

    // An explicit title, which wins over the default the chart derives from its data.
    void setBaseTitle(const QString& title);
    // Hover text at a point in chart coordinates; empty when nothing is under it.
    [[nodiscard]] virtual QString tooltipAt(QPointF) { return {}; }
    // Told the height (in chart coordinates) the chart needs so that no label is truncated;
    // the view makes it its minimum (set by the view; may be empty).
    std::function<void(qreal)> on_height_needed;

protected:
    enum class Swatch { box, line, hatched, dot, none };
    struct LegendEntry {
        QString name;
        QColor color;
        Swatch swatch = Swatch::box;
    };

    void setDefaultTitle(const QString& title);
    void refreshTitle();
    // Shown in the middle instead of data; empty hides it.
    void setMessage(const QString& message);
    // Legend, message, then the subclass's overlays. Call after the data changed.
    void placeOverlays();
    // The largest box (axis_label_box()) a label of a left category axis with `rows` categories
    // can have, as laid out now, before Qt Charts cuts it with "..." or it runs into the next row.
    [[nodiscard]] QSizeF categoryLabelRoom(int rows) const;
    // Category rows whose labels have up to `lines` lines: Qt Charts truncates a label taller
    // than its row ("..."), so ask for the height that gives each of `rows` rows room.
    void needRowHeight(int rows, int lines, const QFont& font);
    // The plot must be at least this tall (e.g. for a vertical axis title Qt Charts would truncate).
    void needPlotHeight(qreal height);
    // Text items reused across updates, created on demand.
    QGraphicsSimpleTextItem* overlayText(std::vector<QGraphicsSimpleTextItem*>& pool, std::size_t i);

    // Appended to the title ("HBM exceeds capacity by 12 GiB"); empty for none.
    [[nodiscard]] virtual QString titleSuffix() const { return {}; }
    [[nodiscard]] virtual std::vector<LegendEntry> legendEntries() const { return {}; }
    // Labels and marks on the plot; the legend (and with it the plot area) is already in place.
    virtual void placeContent() {}
    // The chart was resized (before the overlays move), e.g. to elide category labels anew.
    virtual void resized() {}

private:
    struct LegendItem {
        QGraphicsPathItem* swatch;
        QGraphicsSimpleTextItem* text;
    };

    void placeLegend();
    LegendItem& legendItem(std::size_t i);

    QString explicit_title_;
    QString default_title_;
    bool has_explicit_title_ = false;
    std::vector<LegendItem> legend_items_;
    QGraphicsSimpleTextItem* message_ = nullptr;
    QString message_text_;         // unwrapped; placeOverlays() wraps it to the chart's width
    qreal last_height_need_ = -1;  // what on_height_needed was told last
};

// A QChartView whose tooltips come from a callback (Qt Charts has none per bar or point).
class TipChartView : public QChartView {
public:
    TipChartView(QChart* chart, QWidget* parent);
    std::function<QString(QPointF chart_pos)> tip;
    // Lays the chart out at 1/zoom of the viewport and scales the view by zoom, so that text,
    // bars and lines all grow on screen (presentation mode); exports are not affected.
    void applyZoom(qreal zoom);
    // The chart's own height need (chart coordinates): the widget's minimum height, zoomed.
    void setMinimumChartHeight(qreal height);
    // A page's floor under that need (chart coordinates, zoomed like it).
    void setChartHeightFloor(qreal height);

protected:
    bool viewportEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    qreal zoom_ = 1.0;
    qreal min_chart_height_ = 0;
    qreal floor_chart_height_ = 0;
};

}  // namespace comet::ui
