// The painting half of the report: pages of text (QTextDocument) and charts (ChartRenderable)
// on an A4 landscape QPdfWriter. GUI thread only: the charts are widgets, created parentless and
// never shown.

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QScreen>
#include <QStyle>
#include <QTextDocument>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <functional>

#include "charts/chart_views.hpp"
#include "comet/config.hpp"
#include "comet/report.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "report/report.hpp"
#include "report/report_text.hpp"

namespace comet::ui {
namespace {

// Page geometry in device units. The writer's resolution is the layout DPI of the charts
// (logical px per inch), so one unit is one logical px and point-sized fonts print exactly as
// wide as the charts measured them.
constexpr double margin_px = 36;  // about 9.5 mm
constexpr double header_px = 30;
constexpr double footer_px = 20;
constexpr double gap_px = 14;
// Charts are laid out at 1 / chart_scale times their rect and scaled down: text prints at 80 %
// of its screen size (about 7 pt), still easy to read on paper, and the plot gets room beside
// its axis labels and legend.
constexpr double chart_scale = 0.8;
// Text blocks shrink to fit their rect, but not below this: beyond it they are clipped.
constexpr double min_text_scale = 0.6;

const QColor rule_color(0xb8, 0xc4, 0xd0);
const QColor title_color(0x1f, 0x3b, 0x5a);

double layout_dpi() {
    const QScreen* screen = QGuiApplication::primaryScreen();
    return screen ? std::round(screen->logicalDotsPerInchY()) : 96.0;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }

// ---- text ----

std::unique_ptr<QTextDocument> text_document(const QString& html) {
    auto doc = std::make_unique<QTextDocument>();
    doc->setDocumentMargin(0);
    doc->setDefaultStyleSheet(report::style_sheet());
    doc->setHtml(QStringLiteral("<body>") + html + QStringLiteral("</body>"));
    return doc;
}

// The largest scale (at most 1) at which `doc`, laid out as wide as `box` allows, fits its height.
double fit_scale(QTextDocument& doc, QSizeF box) {
    for (double s = 1.0; s > min_text_scale; s -= 0.025) {
        doc.setTextWidth(box.width() / s);
        if (doc.size().height() * s <= box.height()) return s;
    }
    return min_text_scale;
}

// Height (device units) of `doc` at `scale` when as wide as `width`.
double text_height(QTextDocument& doc, double width, double scale) {
    doc.setTextWidth(width / scale);
    return doc.size().height() * scale;
}

void draw_text(QPainter& p, QTextDocument& doc, const QRectF& rect, double scale) {
    p.save();
    p.translate(rect.topLeft());
    p.scale(scale, scale);
    doc.setTextWidth(rect.width() / scale);
    QAbstractTextDocumentLayout::PaintContext context;
    context.clip = QRectF(QPointF(0, 0), rect.size() / scale);
    context.palette.setColor(QPalette::Text, Qt::black);
    p.setClipRect(context.clip);
    doc.documentLayout()->draw(&p, context);
    p.restore();
}

// Height of `html` at full size when as wide as `width`.
double html_height(const QString& html, double width) {
    const auto doc = text_document(html);
    return text_height(*doc, width, 1.0);
}

// Draws `html` into `rect`, shrunk to fit; returns the height it took.
double draw_html(QPainter& p, const QString& html, const QRectF& rect) {
    const auto doc = text_document(html);
    const double scale = fit_scale(*doc, rect.size());
    draw_text(p, *doc, rect, scale);
    return std::min(rect.height(), text_height(*doc, rect.width(), scale));
}

// ---- charts ----

void draw_chart(QPainter& p, const ChartRenderable& chart, const QRectF& rect, double scale = chart_scale) {
    p.save();
    p.setClipRect(rect);
    p.translate(rect.topLeft());
    p.scale(scale, scale);
    chart.render(p, rect.size() / scale);
    p.restore();
}

QRectF left_part(const QRectF& r, double share) { return {r.left(), r.top(), r.width() * share - gap_px / 2, r.height()}; }
QRectF right_part(const QRectF& r, double share) {
    const double w = r.width() * share - gap_px / 2;
    return {r.right() - w, r.top(), w, r.height()};
}
QRectF top_part(const QRectF& r, double height) { return {r.left(), r.top(), r.width(), height}; }
QRectF below(const QRectF& r, double used) {
    return {r.left(), r.top() + used + gap_px, r.width(), std::max(0.0, r.height() - used - gap_px)};
}

// The heatmap drawn on a light palette whatever the desktop's theme: paper is white.
std::unique_ptr<HeatmapWidget> heatmap_of(const ReportData& d) {
    auto map = std::make_unique<HeatmapWidget>();
    map->setPalette(QApplication::style()->standardPalette());
    const HeatmapCost priced{d.scenario.config, d.scenario.cost};
    HeatmapData data = make_heatmap_data(d.spec, d.grid, d.options.metric, cell_of(d.spec, d.scenario.config), &priced);
    data.title_suffix = d.spec.search ? QStringLiteral("best strategy per cell") : QStringLiteral("strategy as given");
    map->setData(std::move(data));
    return map;
}

// ---- pages ----

void paint_summary(QPainter& p, const ReportData& d, const QRectF& content) {
    // Two columns at one text scale, so that both read alike.
    const auto left = text_document(report::scenario_html(d, QDateTime::currentDateTime()));
    const auto right = text_document(report::result_html(d) + report::assumptions_html(d));
    const QRectF l = left_part(content, 0.5), r = right_part(content, 0.5);
    const double scale = std::min(fit_scale(*left, l.size()), fit_scale(*right, r.size()));
    draw_text(p, *left, l, scale);
    draw_text(p, *right, r, scale);
}

void paint_heatmap(QPainter& p, const ReportData& d, const QRectF& content) {
    draw_chart(p, *heatmap_of(d), left_part(content, 0.56));
    const QRectF side = right_part(content, 0.44);
    const double half = (side.height() - gap_px) / 2;

    // Short bar labels, so that the chart does not elide them; the strategies are spelled out below.
    const auto breakdown = make_breakdown_chart(nullptr);
    std::vector<BreakdownBar> bars;
    if (d.current.iteration_s > 0) bars.push_back({QStringLiteral("As given"), d.current.time});
    if (d.best && d.best->result.feasible) bars.push_back({QStringLiteral("Best strategy"), d.best->result.time});
    breakdown->setTitle(QStringLiteral("Iteration time breakdown"));
    breakdown->setBars(bars);
    const QString caption = report::strategies_caption_html(d);
    const double caption_h = std::min(html_height(caption, side.width()), half / 3);
    draw_chart(p, *breakdown, top_part(side, half - caption_h - gap_px / 2));
    draw_html(p, caption, QRectF(side.left(), side.top() + half - caption_h, side.width(), caption_h));

    // The strategy as given, or the best one when the given one was not even sized (rejected early).
    const bool given_sized = d.current.hbm.capacity_bytes > 0 || !d.best;
    const Result& shown = given_sized ? d.current : d.best->result;
    const auto memory = make_memory_chart(nullptr);
    memory->setTitle(given_sized ? QStringLiteral("Memory per accelerator — strategy as given")
                                 : QStringLiteral("Memory per accelerator — best strategy"));
    memory->setTiers(report::memory_tiers(shown));
    draw_chart(p, *memory, below(side, half));
}

void paint_comparison(QPainter& p, const ReportData& d, const QRectF& content) {
    const Comparison& c = d.comparison;
    std::vector<BreakdownBar> bars;
    std::vector<MemoryBar> tiers;
    // The design's number and speedup go in a trailing "(…)" group, which the charts keep whole
    // when they shorten a long name to fit.
    for (std::size_t i = 0; i < c.designs.size(); ++i) {
        const DesignOutcome& o = c.designs[i];
        if (!o.result.feasible) continue;
        bars.push_back({QStringLiteral("%1 (#%2, %3)").arg(qs(o.name)).arg(i + 1).arg(report::format_speedup(o.speedup)), o.result.time});
        tiers.push_back({QStringLiteral("%1 (#%2)").arg(qs(o.name)).arg(i + 1), o.result.hbm});
    }
    // The table at its natural height (at most half the page), the charts above it in the rest.
    const QString table = report::comparison_html(d);
    const double table_h = std::min(html_height(table, content.width()), content.height() / 2);
    const QRectF top = top_part(content, content.height() - table_h - gap_px);
    const auto breakdown = make_breakdown_chart(nullptr);
    breakdown->setTitle(QStringLiteral("Iteration time breakdown per design (#, speedup vs baseline)"));
    breakdown->setBars(bars);
    draw_chart(p, *breakdown, left_part(top, 0.62));
    const auto memory = make_memory_chart(nullptr);
    memory->setTitle(QStringLiteral("HBM per accelerator per design"));
    memory->setTiers(tiers);
    draw_chart(p, *memory, right_part(top, 0.38));
    draw_html(p, table, below(content, top.height()));
}

void paint_sensitivity_and_cost(QPainter& p, const ReportData& d, const QRectF& content) {
    // The tornado across the page: its row labels (resource and base value) need the width.
    const auto tornado = make_tornado_chart(nullptr);
    tornado->setBars(d.tornado, d.options.fraction);
    const QRectF top = top_part(content, content.height() * 0.44);
    draw_chart(p, *tornado, top);

    const QRectF bottom = below(content, top.height());
    draw_html(p, report::cost_html(d), left_part(bottom, 0.45));
    const QRectF rest = right_part(bottom, 0.55);
    const auto feasible = std::count_if(d.pareto.begin(), d.pareto.end(), [](const ParetoPoint& pt) { return pt.feasible; });
    if (feasible < 2) {
        draw_html(p, report::pareto_note_html(d), rest);
        return;
    }
    const auto pareto = make_pareto_chart(nullptr);
    pareto->setTitle(d.scenario.cost.tokens_to_train > 0            ? QStringLiteral("Time to train vs cost")
                     : d.scenario.config.workload == Workload::dlrm ? QStringLiteral("Time vs cost per million samples (no sample budget)")
                                                                    : QStringLiteral("Time vs cost per million tokens (no token budget)"));
    pareto->setPoints(d.pareto);
    // Smaller text than the other charts: its point labels need room not to collide.
    draw_chart(p, *pareto, rest, 0.7);
}

struct Page {
    QString title;
    std::function<void(QPainter&, const ReportData&, const QRectF&)> paint;
};

std::vector<Page> plan_pages(const ReportData& d) {
    std::vector<Page> pages{{QStringLiteral("Summary and assumptions"), paint_summary},
                            {QStringLiteral("Heatmap, breakdown and memory"), paint_heatmap}};
    if (!d.scenario.designs.empty()) pages.push_back({QStringLiteral("Comparison of designs"), paint_comparison});
    pages.push_back({QStringLiteral("Sensitivity and cost"), paint_sensitivity_and_cost});
    return pages;
}

QFont font_of(double point_size, bool bold = false) {
    QFont f = QApplication::font();
    f.setPointSizeF(point_size);
    f.setBold(bold);
    return f;
}

// Header (report title left, page title right, a rule) and footer (version left, page n of N
// right); returns the rect left for the page's content.
QRectF paint_frame(QPainter& p, const QRectF& page, const QString& report, const QString& title, int n, int count) {
    const QRectF inner = page.adjusted(margin_px, margin_px, -margin_px, -margin_px);
    p.save();
    p.setPen(title_color);
    p.setFont(font_of(11, true));
    const double right_w = p.fontMetrics().horizontalAdvance(title) + gap_px;
    p.drawText(QRectF(inner.right() - right_w, inner.top(), right_w, header_px - 8), Qt::AlignRight | Qt::AlignVCenter, title);
    p.setPen(Qt::black);
    // The report's title whole (it names the model, size and node): a smaller font, then two
    // lines; cut with "…" only where even two lines of the smallest cannot hold it.
    const QRectF left(inner.left(), inner.top(), inner.width() - right_w - gap_px, header_px - 4);
    double point = 11;
    for (p.setFont(font_of(point)); point > 7 && p.fontMetrics().horizontalAdvance(report) > left.width(); p.setFont(font_of(point)))
        point -= 0.5;
    if (p.fontMetrics().horizontalAdvance(report) <= left.width()) {
        p.drawText(left, Qt::AlignLeft | Qt::AlignVCenter, report);
    } else {
        const QRectF need = p.fontMetrics().boundingRect(left.toAlignedRect(), Qt::TextWordWrap, report);
        const bool two_lines = need.height() <= left.height() + 1;
        p.drawText(left, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                   two_lines ? report : p.fontMetrics().elidedText(report, Qt::ElideRight, int(2 * left.width())));
    }
    p.setPen(QPen(rule_color, 1));
    p.drawLine(QPointF(inner.left(), inner.top() + header_px - 4), QPointF(inner.right(), inner.top() + header_px - 4));

    p.setFont(font_of(7.5));
    p.setPen(QColor(0x55, 0x55, 0x55));
    const QRectF foot(inner.left(), inner.bottom() - footer_px + 6, inner.width(), footer_px - 6);
    p.drawLine(QPointF(inner.left(), foot.top() - 3), QPointF(inner.right(), foot.top() - 3));
    p.drawText(foot, Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("COMET Explorer ") + QString::fromUtf8(comet::config::version));
    p.drawText(foot, Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("Page %1 of %2").arg(n).arg(count));
    p.restore();
    return inner.adjusted(0, header_px + 4, 0, -footer_px - 4);
}

QString paint_report(const ReportData& d, QIODevice& out) {
    const double dpi = layout_dpi();
    QPdfWriter pdf(&out);
    pdf.setTitle(report_title(d));
    pdf.setCreator(QStringLiteral("COMET Explorer"));
    pdf.setResolution(static_cast<int>(dpi));
    if (!pdf.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Landscape, QMarginsF(0, 0, 0, 0))))
        return QStringLiteral("cannot set an A4 landscape page");
    const std::vector<Page> pages = plan_pages(d);
    QPainter p;
    if (!p.begin(&pdf)) return QStringLiteral("cannot start a PDF document");
    p.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    const QRectF page = pdf.pageLayout().fullRectPixels(static_cast<int>(dpi));
    for (std::size_t i = 0; i < pages.size(); ++i) {
        if (i > 0 && !pdf.newPage()) return QStringLiteral("cannot start page %1").arg(i + 1);
        const QRectF content =
            paint_frame(p, page, report_title(d), pages[i].title, static_cast<int>(i + 1), static_cast<int>(pages.size()));
        pages[i].paint(p, d, content);
    }
    return p.end() ? QString() : QStringLiteral("cannot finish the PDF document");
}

QString cannot_write(const QString& path, const QString& reason) { return QStringLiteral("Cannot write %1: %2").arg(path, reason); }

}  // namespace

QString report_title(const ReportData& data) {
    // From the configuration, not the scenario's name: that keeps "384 DGX A100" after an edit to 24 nodes.
    const Scenario& s = data.scenario;
    const QString model = s.model_info.name.empty() ? QStringLiteral("custom model") : qs(s.model_info.name);
    const QString node = s.node_info.name.empty() ? QStringLiteral("custom node") : qs(s.node_info.name);
    return QStringLiteral("COMET Explorer report — %1 on %2 x %3").arg(model, QString::number(s.config.cluster.nodes), node);
}

int report_page_count(const ReportData& data) { return static_cast<int>(plan_pages(data).size()); }

QString write_report_pdf(const ReportData& data, const QString& path) {
    // The charts are widgets: without a QApplication, or off its thread, Qt would abort.
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()) || QThread::currentThread() != qApp->thread())
        return cannot_write(
            path, QStringLiteral("the report is painted with widgets: call write_report_pdf on the GUI thread of a QApplication"));
    if (data.cancelled) return cannot_write(path, QStringLiteral("the report was cancelled before it was complete"));
    const QFileInfo info(path);
    if (!info.absoluteDir().exists()) return cannot_write(path, QStringLiteral("the directory %1 does not exist").arg(info.absolutePath()));
    // QSaveFile writes beside `path` and renames on commit(); any failure discards the temporary
    // file and leaves whatever was at `path`.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return cannot_write(path, file.errorString());
    if (const QString why = paint_report(data, file); !why.isEmpty()) {
        file.cancelWriting();
        return cannot_write(path, why);
    }
    if (!file.commit()) return cannot_write(path, file.errorString());
    return {};
}

}  // namespace comet::ui
