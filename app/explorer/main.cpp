// comet-explorer: the desktop explorer. `--screenshot FILE [SCENARIO]` renders the main window
// offscreen once the first evaluation is on screen, saves a PNG and exits; `--report ARGS...`
// writes the PDF report without a window (report_command.cpp; `comet-cli report` runs it).
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QTabWidget>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "comet/config.hpp"
#include "comet/scenario.hpp"
#include "analysis_page.hpp"
#include "compare_page.hpp"
#include "explorer_page.hpp"
#include "fsdp_page.hpp"
#include "main_window.hpp"
#include "report_command.hpp"

namespace {

// Batch options must work without a display: choose the offscreen platform before QApplication.
void prefer_offscreen_for_batch(int argc, char** argv) {
    bool batch = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        batch = batch || a == "--screenshot" || a == "--help" || a == "-h" || a == "--version" || a == "-v";
    }
    if (batch && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

}  // namespace

int main(int argc, char** argv) {
    // The report takes comet-cli's options, not the window's: handled before Qt parses anything.
    if (argc >= 2 && std::string_view(argv[1]) == "--report") return comet::cli::run_report(argc - 2, argv + 2);
    prefer_offscreen_for_batch(argc, argv);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("comet-explorer"));
    QApplication::setOrganizationName(QStringLiteral("comet-explorer"));
    // The installed theme icon, else the one compiled in (running from the build tree).
    const QString app_id = QStringLiteral("io.github.comet_explorer.CometExplorer");
    QGuiApplication::setDesktopFileName(app_id);
    QApplication::setWindowIcon(QIcon::fromTheme(app_id, QIcon(QStringLiteral(":/icons/comet-explorer.svg"))));
    QApplication::setApplicationVersion(QString::fromLatin1(comet::config::version));
    QApplication::setApplicationDisplayName(QStringLiteral("COMET Explorer"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("What-if explorer for large-model training clusters (COMET methodology)."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("scenario"),
                                 QStringLiteral("Scenario file (*.comet.json); default: the last one, else the bundled default."),
                                 QStringLiteral("[SCENARIO]"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"), QStringLiteral("Render the window to a PNG file and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot, e.g. 1600x1000."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption page(QStringLiteral("page"), QStringLiteral("Page for --screenshot: explore, compare, analysis or fsdp."),
                                  QStringLiteral("PAGE"), QStringLiteral("explore"));
    parser.addOption(screenshot);
    parser.addOption(size);
    const QCommandLineOption presentation(QStringLiteral("presentation"),
                                          QStringLiteral("Start in presentation mode (with --screenshot: render it)."));
    parser.addOption(page);
    parser.addOption(presentation);
    // Handled before the parser runs (see the top of main); listed here for --help.
    const QCommandLineOption report(
        QStringLiteral("report"),
        QStringLiteral("Write the PDF report without a window and exit: --report SCENARIO --pdf FILE [OPTIONS] (must come first; '--report "
                       "--help' lists the options, the same as 'comet-cli report')."));
    parser.addOption(report);
    parser.process(app);

    comet::app::MainWindow window;
    const QStringList args = parser.positionalArguments();
    if (!parser.isSet(screenshot)) {
        window.start(args.value(0));
        window.show();
        if (parser.isSet(presentation)) window.setPresentationMode(true);
        return QApplication::exec();
    }

    // Screenshot mode: wait for the first evaluation, render, save, quit.
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
    if (wh.size() != 2 || w < 320 || h < 240 || w > 8000 || h > 8000) {
        std::fprintf(stderr, "comet-explorer: --size must be WxH between 320x240 and 8000x8000\n");
        return 2;
    }
    // The page names of a scenario file's view (comet/scenario.hpp), in tab order.
    const std::span<const std::string_view> pages = comet::view_page_ids();
    const QByteArray wanted = parser.value(page).toUtf8();
    const auto found = std::find(pages.begin(), pages.end(), std::string_view(wanted.constData(), static_cast<std::size_t>(wanted.size())));
    const int page_index = found == pages.end() ? -1 : static_cast<int>(found - pages.begin());
    if (page_index < 0) {
        std::fprintf(stderr, "comet-explorer: --page must be explore, compare, analysis or fsdp\n");
        return 2;
    }
    // A maximised or full-screen state restored from the settings would win over --size.
    window.setWindowState(Qt::WindowNoState);
    window.resize(w, h);
    window.pages()->setCurrentIndex(page_index);
    const QString out = parser.value(screenshot);
    int status = 0;
    // The page's first result on screen, then a moment for the charts to lay out.
    const auto ready = [&] {
        QTimer::singleShot(100, &app, [&] {  // let the charts lay out
            if (!window.grab().save(out, "PNG")) {
                std::fprintf(stderr, "comet-explorer: cannot write %s\n", qPrintable(out));
                status = 1;
            }
            QApplication::quit();
        });
    };
    if (page_index == 0) QObject::connect(window.explorer(), &comet::app::ExplorerPage::evaluated, &app, ready);
    if (page_index == 1) QObject::connect(window.compare(), &comet::app::ComparePage::compared, &app, ready);
    if (page_index == 2) QObject::connect(window.analysis(), &comet::app::AnalysisPage::analysed, &app, ready);
    if (page_index == 3) QObject::connect(window.fsdp(), &comet::app::FsdpPage::computed, &app, ready);
    QTimer::singleShot(60000, &app, [&] {
        std::fprintf(stderr, "comet-explorer: no evaluation finished within 60 s\n");
        status = 1;
        QApplication::quit();
    });
    window.start(args.value(0), false);
    window.show();
    if (parser.isSet(presentation)) {
        window.setPresentationMode(true);
        // The offscreen screen (800x800 unless configured) is smaller than a projector: render
        // presentation mode at --size, not at the screen's size.
        window.setWindowState(Qt::WindowNoState);
        window.resize(w, h);
        // Once more after the text has scaled to that height: the larger text's minimum size can
        // have held the window above it.
        QCoreApplication::processEvents();
        window.resize(w, h);
    }
    const int rc = QApplication::exec();
    return status != 0 ? status : rc;
}
