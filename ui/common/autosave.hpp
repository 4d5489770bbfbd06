#pragma once
// Crash safety for the scenario being edited. While the document has unsaved changes, Autosaver
// writes it (atomically) to a file of its own in the autosave folder, a few seconds after the
// last edit; saving, discarding or a normal exit removes the file. A file left behind by a
// process that is no longer running is what a crash leaves: the next start finds it with
// orphaned_autosaves() and offers to restore it.

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>
#include <vector>

#include "comet/scenario.hpp"

namespace comet::ui {

class ScenarioDocument;

// The folder: $COMET_AUTOSAVE_DIR, else <app data>/autosave (~/.local/share/comet-explorer/autosave).
[[nodiscard]] QString autosave_dir();

struct AutosaveFile {
    QString path;           // the scenario text (autosave-<pid>.comet.json)
    QString original_path;  // the file the scenario came from; empty when it was never saved
    QDateTime saved;        // when it was written
    qint64 pid = 0;         // the process that wrote it
};

// Autosaves whose writer is no longer running, newest first.
[[nodiscard]] std::vector<AutosaveFile> orphaned_autosaves();
// Loads an autosave; the error text (naming the file) when it cannot be read.
[[nodiscard]] Loaded<Scenario> load_autosave(const AutosaveFile& f);
// Removes an autosave and its sidecar.
void remove_autosave(const AutosaveFile& f);

class Autosaver : public QObject {
    Q_OBJECT
public:
    // `delay_ms` after the last edit the document is written (default 2 s).
    explicit Autosaver(ScenarioDocument* doc, int delay_ms = 2000, QObject* parent = nullptr);
    ~Autosaver() override;  // a normal exit: the autosave is removed

    [[nodiscard]] QString path() const;  // this process' autosave file
    void flush();                        // writes now if there is anything unsaved
    // The last problem writing the autosave (shown in the status bar), empty when fine.
    [[nodiscard]] const QString& lastError() const noexcept { return error_; }

Q_SIGNALS:
    void written(const QString& path);
    void failed(const QString& error);

private:
    void onChanged();
    void remove();

    ScenarioDocument* doc_;
    QTimer timer_;
    QString error_;
};

}  // namespace comet::ui
