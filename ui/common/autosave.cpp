#include "autosave.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <algorithm>
#include <cerrno>
#include <utility>

#include <signal.h>

#include "scenario_document.hpp"

namespace comet::ui {
namespace {

QString scenario_name(qint64 pid) { return QStringLiteral("autosave-%1.comet.json").arg(pid); }
QString sidecar_name(qint64 pid) { return QStringLiteral("autosave-%1.meta.json").arg(pid); }

// The state letter and the command name of a process from /proc/<pid>/stat ("1234 (comet-explorer) S
// ..."): empty when the file cannot be read (no /proc, or the process is gone).
std::pair<QChar, QString> proc_state(qint64 pid) {
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QString stat = QString::fromLocal8Bit(f.read(4096));
    const qsizetype open = stat.indexOf(QLatin1Char('(')), close = stat.lastIndexOf(QLatin1Char(')'));
    if (open < 0 || close < open || close + 2 >= stat.size()) return {};
    return {stat.at(close + 2), stat.mid(open + 1, close - open - 1)};
}

// Whether the process that wrote an autosave still runs. kill(pid, 0) asks whether the pid exists
// without signalling it (EPERM: it exists but is someone else's). A process that died but was not
// yet reaped (a zombie, 'Z'; or dead, 'X') runs no more: its autosave is an orphan. A pid now held
// by another program (its name is not ours) was recycled: the writer is gone too. Without /proc
// an existing pid counts as running, which only hides an orphan, never deletes one.
bool running(qint64 pid) {
    if (pid <= 0) return false;
    if (!(::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM)) return false;
    const auto [state, name] = proc_state(pid);
    if (state.isNull()) return true;
    if (state == QLatin1Char('Z') || state == QLatin1Char('X') || state == QLatin1Char('x')) return false;
    const QString ours = proc_state(QCoreApplication::applicationPid()).second;
    return ours.isEmpty() || name == ours;
}

}  // namespace

QString autosave_dir() {
    const QByteArray env = qgetenv("COMET_AUTOSAVE_DIR");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("autosave"));
}

std::vector<AutosaveFile> orphaned_autosaves() {
    std::vector<AutosaveFile> out;
    const QDir dir(autosave_dir());
    for (const QFileInfo& meta : dir.entryInfoList({QStringLiteral("autosave-*.meta.json")}, QDir::Files)) {
        QFile f(meta.filePath());
        if (!f.open(QIODevice::ReadOnly) || f.size() > 65536) continue;
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        AutosaveFile a;
        a.pid = static_cast<qint64>(o.value(QStringLiteral("pid")).toDouble());
        a.original_path = o.value(QStringLiteral("file")).toString();
        a.saved = QDateTime::fromString(o.value(QStringLiteral("saved")).toString(), Qt::ISODate);
        a.path = dir.filePath(scenario_name(a.pid));
        if (a.pid <= 0 || a.pid == QCoreApplication::applicationPid() || running(a.pid) || !QFileInfo::exists(a.path)) continue;
        out.push_back(a);
    }
    std::sort(out.begin(), out.end(), [](const AutosaveFile& x, const AutosaveFile& y) { return x.saved > y.saved; });
    return out;
}

Loaded<Scenario> load_autosave(const AutosaveFile& f) { return load_scenario_file(f.path.toStdString()); }

void remove_autosave(const AutosaveFile& f) {
    QFile::remove(f.path);
    QFile::remove(QDir(QFileInfo(f.path).absolutePath()).filePath(sidecar_name(f.pid)));
}

Autosaver::Autosaver(ScenarioDocument* doc, int delay_ms, QObject* parent) : QObject(parent), doc_(doc) {
    timer_.setSingleShot(true);
    timer_.setInterval(delay_ms);
    connect(&timer_, &QTimer::timeout, this, &Autosaver::flush);
    connect(doc_, &ScenarioDocument::changed, this, &Autosaver::onChanged);
    connect(doc_, &ScenarioDocument::viewChanged, this, &Autosaver::onChanged);  // written only while modified
    connect(doc_, &ScenarioDocument::modifiedChanged, this, [this](bool modified) {
        if (!modified) remove();  // saved, or undone back to the saved state
    });
}

Autosaver::~Autosaver() { remove(); }

QString Autosaver::path() const { return QDir(autosave_dir()).filePath(scenario_name(QCoreApplication::applicationPid())); }

// `changed` arrives while the undo stack is still taking the command, before it counts as
// modified: decide when the timer fires.
void Autosaver::onChanged() { timer_.start(); }  // restarts: written once the edits pause

void Autosaver::flush() {
    timer_.stop();
    if (!doc_->isModified()) {
        remove();
        return;
    }
    const qint64 pid = QCoreApplication::applicationPid();
    const QDir dir(autosave_dir());
    if (!dir.mkpath(QStringLiteral("."))) {
        error_ = tr("Cannot create the autosave folder %1").arg(dir.path());
        Q_EMIT failed(error_);
        return;
    }
    // The scenario first, then the sidecar that makes it visible to a later start.
    std::string problem = save_scenario_file(path().toStdString(), doc_->forSaving());
    if (problem.empty()) {
        QJsonObject meta{{QStringLiteral("pid"), static_cast<double>(pid)},
                         {QStringLiteral("file"), doc_->filePath()},
                         {QStringLiteral("saved"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
        problem = save_text_atomically(dir.filePath(sidecar_name(pid)).toStdString(), QJsonDocument(meta).toJson().toStdString());
    }
    if (!problem.empty()) {
        error_ = tr("Autosave failed: %1").arg(QString::fromStdString(problem));
        Q_EMIT failed(error_);
        return;
    }
    error_.clear();
    Q_EMIT written(path());
}

void Autosaver::remove() {
    timer_.stop();
    remove_autosave({path(), {}, {}, QCoreApplication::applicationPid()});
}

}  // namespace comet::ui
