// The one export path (export/chart_export.hpp) for every chart kind and the heatmap: PNG size
// and stored DPI, SVG that parses and keeps its text, PDF that poppler reads and rasterises,
// refusals that leave existing files alone, and the clipboard.

#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>

#include "charts/chart_views.hpp"
#include "comet/units.hpp"
#include "export/chart_export.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "ui_fixtures.hpp"

using namespace comet;
using namespace comet::ui;
using comet::test::read_all;
using comet::test::run_tool;
using comet::test::write_file;

namespace {

// A chart under test, its default title and a label drawn in it.
struct Subject {
    std::shared_ptr<void> owner;
    const ChartRenderable* chart = nullptr;
    QString title;
    QString label;
};

template <class T>
Subject subject(std::shared_ptr<T> owner, QString title, QString label) {
    const ChartRenderable* chart = owner.get();
    return {std::move(owner), chart, std::move(title), std::move(label)};
}

TimeBreakdown iteration() {
    TimeBreakdown t;
    t.compute_s = 87.2;
    t.bubble_s = 5.8;
    t.tp_comm_s = 5.6;
    t.dp_comm_s = 0.6;
    return t;
}

SensitivityBar sensitivity_bar(Knob knob, double base_value, double time_low_s, double time_high_s) {
    SensitivityBar b;
    b.knob = knob;
    b.base_value = base_value;
    b.low_value = 0.9 * base_value;
    b.high_value = 1.1 * base_value;
    b.base_time_s = 80;
    b.base_feasible = b.low_feasible = b.high_feasible = true;
    b.time_low_s = time_low_s;
    b.time_high_s = time_high_s;
    return b;
}

ParetoPoint pareto_point(const char* label, double days, double cost_usd) {
    ParetoPoint p;
    p.label = label;
    p.time_to_train_s = days * 86400;
    p.cost_usd = cost_usd;
    return p;
}

Subject make_subject(const QString& kind) {
    if (kind == "breakdown") {
        std::shared_ptr<BreakdownChartView> v = make_breakdown_chart(nullptr);
        v->setBars({{"current", iteration()}});
        return subject(v, "Iteration time breakdown", "current");
    }
    if (kind == "memory") {
        std::shared_ptr<MemoryChartView> v = make_memory_chart(nullptr);
        MemoryFootprint m;
        m.weights_bytes = units::gib_to_bytes(20);
        m.optimizer_bytes = units::gib_to_bytes(30);
        m.capacity_bytes = units::gib_to_bytes(80);
        v->setTiers({{"HBM", m}});
        return subject(v, "Memory per accelerator", "Memory per accelerator (GiB)");
    }
    if (kind == "tornado") {
        std::shared_ptr<TornadoChartView> v = make_tornado_chart(nullptr);
        v->setBars({sensitivity_bar(Knob::hbm_gbps, 2039, 86.64, 75.92), sensitivity_bar(Knob::scale_out_gbps, 25, 83, 78)}, 0.1);
        return subject(v, "Sensitivity of the best iteration time", "HBM bandwidth (2039 GB/s)");
    }
    if (kind == "pareto") {
        std::shared_ptr<ParetoChartView> v = make_pareto_chart(nullptr);
        v->setPoints(pareto_front(
            {pareto_point("96 nodes", 121, 10.3e6), pareto_point("192 nodes", 62, 10.5e6), pareto_point("768 nodes", 35, 21.9e6)}));
        return subject(v, "Time to train vs cost", "192 nodes");
    }
    auto w = std::make_shared<HeatmapWidget>();
    w->setData(test::small_heatmap());
    return subject(w, "Iteration time", "HBM bandwidth (GB/s)");
}

void add_kinds() {
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"breakdown", "memory", "tornado", "pareto", "heatmap"}) QTest::newRow(kind) << QString(kind);
}

int distinct_colors(const QImage& image) {
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2) seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

// Mean absolute difference of grey levels (0..255) of two images of the same size.
double mean_grey_difference(const QImage& a, const QImage& b) {
    double sum = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) sum += std::abs(qGray(a.pixel(x, y)) - qGray(b.pixel(x, y)));
    return sum / (static_cast<double>(a.width()) * a.height());
}

double non_white_share(const QImage& image) {
    qsizetype n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if ((image.pixel(x, y) & 0xFFFFFF) != 0xFFFFFF) ++n;
    return static_cast<double>(n) / (static_cast<double>(image.width()) * image.height());
}

QByteArray precious() { return QByteArrayLiteral("an earlier export the user wants to keep"); }

// A chart that runs a check while it is being painted, i.e. while the export is under way.
class ProbeChart final : public ChartRenderable {
public:
    std::function<void()> during_render;
    void render(QPainter& p, QSizeF size) const override {
        if (during_render) during_render();
        p.fillRect(QRectF(QPointF(0, 0), size / 2), Qt::darkCyan);
        p.drawText(QPointF(10, size.height() - 10), QStringLiteral("probe"));
    }
    QString exportTitle() const override { return QStringLiteral("Probe"); }
    QSize preferredExportSize() const override { return {300, 200}; }
};

}  // namespace

class TestExport : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void pngHasTheRequestedPixelsAndDpi_data() { add_kinds(); }
    void pngHasTheRequestedPixelsAndDpi() {
        QFETCH(QString, kind);
        const Subject s = make_subject(kind);
        QTemporaryDir dir;
        // 72 dpi: below 96 the painter, not the device pixel ratio, must shrink the chart.
        for (auto [size, dpi] : {std::pair{QSize(640, 400), 150.0}, std::pair{QSize(500, 320), 288.0}, std::pair{QSize(800, 450), 72.0}}) {
            const QString path = dir.filePath(kind + ".png");
            ExportOptions o;
            o.size = size;
            o.dpi = dpi;
            const QString why = export_chart(*s.chart, path, o);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            const QImage image(path);
            QVERIFY(!image.isNull());
            QCOMPARE(image.size(), QSize(static_cast<int>(std::lround(size.width() * dpi / 96)),
                                         static_cast<int>(std::lround(size.height() * dpi / 96))));
            QCOMPARE(std::lround(image.dotsPerMeterX() * 0.0254), std::lround(dpi));
            QCOMPARE(std::lround(image.dotsPerMeterY() * 0.0254), std::lround(dpi));
            QCOMPARE(image.pixel(1, 1) & 0xFFFFFF, 0xFFFFFFu);  // white background
            QVERIFY2(distinct_colors(image) >= 8, qPrintable(QString::number(distinct_colors(image))));
            QVERIFY(non_white_share(image) > 0.03);
        }
    }

    void pngDefaultsToThePreferredSize_data() { add_kinds(); }
    void pngDefaultsToThePreferredSize() {
        QFETCH(QString, kind);
        const Subject s = make_subject(kind);
        QTemporaryDir dir;
        const QString path = dir.filePath("default.PNG");  // extensions in any case
        QVERIFY(export_chart(*s.chart, path).isEmpty());
        QCOMPARE(QImage(path).size(), s.chart->preferredExportSize() * 2);  // 192 dpi
    }

    void svgParsesAndKeepsItsText_data() { add_kinds(); }
    void svgParsesAndKeepsItsText() {
        QFETCH(QString, kind);
        const Subject s = make_subject(kind);
        QVERIFY2(s.chart->exportTitle().startsWith(s.title), qPrintable(s.chart->exportTitle()));
        QTemporaryDir dir;
        const QString path = dir.filePath(kind + ".svg");
        ExportOptions o;
        o.size = QSize(720, 420);
        QVERIFY(export_chart(*s.chart, path, o).isEmpty());
        QSvgRenderer svg(path);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBox(), QRect(0, 0, 720, 420));
        const QString xml = QString::fromUtf8(read_all(path));
        QVERIFY(xml.contains("<title>" + s.chart->exportTitle().toHtmlEscaped() + "</title>"));
        QVERIFY2(xml.contains(">" + s.title), qPrintable(s.title));  // drawn as text, not paths
        QVERIFY2(xml.contains(s.label), qPrintable(s.label));
    }

    void pdfIsOnePageOfVectorTextThatRasterises_data() { add_kinds(); }
    void pdfIsOnePageOfVectorTextThatRasterises() {
        QFETCH(QString, kind);
        const Subject s = make_subject(kind);
        QTemporaryDir dir;
        const QString path = dir.filePath(kind + ".pdf");
        ExportOptions o;
        o.size = QSize(768, 432);  // 8 x 4.5 in at 96 px per inch
        QVERIFY(export_chart(*s.chart, path, o).isEmpty());
        QVERIFY(read_all(path).startsWith("%PDF"));
        const QString text = QString::fromUtf8(run_tool("pdftotext", {path, "-"}));
        if (QTest::currentTestFailed()) return;
        QVERIFY2(text.contains(s.title), qPrintable(text));
        QVERIFY2(text.contains(s.label), qPrintable(text));
        const QString info = QString::fromUtf8(run_tool("pdfinfo", {path}));
        if (QTest::currentTestFailed()) return;
        QVERIFY2(info.contains("COMET Explorer"), qPrintable(info));  // creator
        static const QRegularExpression one_page(QStringLiteral("Pages:\\s+1\\n"));
        QVERIFY2(info.contains(one_page), qPrintable(info));
        QVERIFY2(info.contains("576 x 324 pts"), qPrintable(info));  // exactly the chart's size
        const QString prefix = dir.filePath(kind + "-page");
        run_tool("pdftoppm", {"-png", "-r", "50", "-singlefile", path, prefix});
        if (QTest::currentTestFailed()) return;
        const QImage page(prefix + ".png");
        QVERIFY(!page.isNull());
        QCOMPARE(page.size(), QSize(400, 225));  // 8 x 4.5 in at 50 dpi
        QVERIFY(distinct_colors(page) >= 5);
        QVERIFY(non_white_share(page) > 0.03);
        // The page looks like the chart rendered directly at that resolution (same layout and scale).
        const double difference = mean_grey_difference(page, render_chart_image(*s.chart, o.size, 50));
        qInfo("%s: mean grey difference PDF vs PNG %.2f", qPrintable(kind), difference);
        QVERIFY2(difference < 6, qPrintable(QString::number(difference)));
    }

    void replacesAnExistingFileWholly() {
        const Subject s = make_subject("tornado");
        QTemporaryDir dir;
        const QString path = dir.filePath("chart.svg");
        write_file(path, precious());
        QVERIFY(export_chart(*s.chart, path).isEmpty());
        QVERIFY(QSvgRenderer(path).isValid());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"chart.svg"});  // no temporary left
    }

    // Until the new file is complete, the old one stays as it was (written beside it, then renamed).
    void theOldFileSurvivesUntilTheNewOneIsComplete() {
        QTemporaryDir dir;
        for (const char* name : {"chart.png", "chart.svg", "chart.pdf"}) {
            const QString path = dir.filePath(name);
            write_file(path, precious());
            ProbeChart probe;
            int checks = 0;
            probe.during_render = [&] {
                ++checks;
                QCOMPARE(read_all(path), precious());
            };
            QVERIFY(export_chart(probe, path).isEmpty());
            QCOMPARE(checks, 1);
            QVERIFY(read_all(path) != precious());
            QVERIFY(read_all(path).size() > 100);
        }
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);
    }

    void refusalsNameTheValueAndKeepTheFile() {
        const Subject s = make_subject("pareto");
        QTemporaryDir dir;
        const auto refuse = [&](const QString& name, const ExportOptions& o, const QStringList& mentions) {
            const QString path = dir.filePath(name);
            write_file(path, precious());
            const QString why = export_chart(*s.chart, path, o);
            for (const QString& m : mentions) QVERIFY2(why.contains(m), qPrintable(why + " lacks " + m));
            QCOMPARE(read_all(path), precious());
        };
        ExportOptions ok;
        ok.size = QSize(600, 400);
        refuse("chart.bmp", ok, {"\".bmp\"", ".png, .svg or .pdf"});
        refuse("chart", ok, {"no file extension", ".png, .svg or .pdf"});
        ExportOptions small = ok;
        small.size = QSize(50, 400);
        refuse("small.png", small, {"50 x 400 px", "100..10000 px"});
        ExportOptions huge = ok;
        huge.size = QSize(600, 12000);
        refuse("huge.pdf", huge, {"600 x 12000 px", "100..10000 px"});
        ExportOptions coarse = ok;
        coarse.dpi = 20;
        refuse("coarse.png", coarse, {"20 dpi", "48..1200 dpi"});
        ExportOptions fine = ok;
        fine.dpi = 5000;
        refuse("fine.svg", fine, {"5000 dpi", "48..1200 dpi"});
        ExportOptions giant;
        giant.size = QSize(10000, 10000);
        giant.dpi = 1200;
        refuse("giant.png", giant, {"megapixels"});
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 7);  // nothing else was written
    }

    void unwritablePlacesAreNamed() {
        const Subject s = make_subject("breakdown");
        const QString missing = "/nonexistent-comet-dir/chart.png";
        const QString why = export_chart(*s.chart, missing);
        QVERIFY2(why.contains(missing), qPrintable(why));
        QVERIFY(!QFile::exists(missing));
        // A file where a directory should be (permissions would not stop root).
        QTemporaryDir dir;
        write_file(dir.filePath("file"), precious());
        const QString below_file = dir.filePath("file/chart.pdf");
        const QString why2 = export_chart(*s.chart, below_file);
        QVERIFY2(why2.contains(below_file), qPrintable(why2));
        QCOMPARE(read_all(dir.filePath("file")), precious());
    }

    void clipboardGetsTheImageAtTwiceTheSize() {
        const Subject s = make_subject("tornado");
        QGuiApplication::clipboard()->clear();
        QVERIFY(QGuiApplication::clipboard()->image().isNull());
        copy_chart_to_clipboard(*s.chart, QSize(400, 250));
        const QImage image = QGuiApplication::clipboard()->image();
        QVERIFY2(!image.isNull(), "the offscreen platform keeps an in-process clipboard");
        QCOMPARE(image.size(), QSize(800, 500));
        QVERIFY(distinct_colors(image) >= 8);
        copy_chart_to_clipboard(*s.chart);
        QCOMPARE(QGuiApplication::clipboard()->image().size(), s.chart->preferredExportSize() * 2);
    }

    void renderedImageCarriesDpiAndRatio() {
        const Subject s = make_subject("memory");
        const QImage image = render_chart_image(*s.chart, QSize(300, 200), 144);
        QCOMPARE(image.size(), QSize(450, 300));
        QCOMPARE(image.devicePixelRatio(), 1.5);
        QCOMPARE(std::lround(image.dotsPerMeterX() * 0.0254), 144L);
    }

    void dialogFilters() {
        QCOMPARE(chart_export_filters(), (QStringList{"PNG image (*.png)", "SVG vector image (*.svg)", "PDF document (*.pdf)"}));
    }
};

QTEST_MAIN(TestExport)
#include "test_export.moc"
