// SPDX-License-Identifier: GPL-3.0-or-later
// "Compare With Actual Output…": a wrong output from another framework or a converted model
// (a .npy, or pasted values) held next to the result on show. The engine diagnoses it against
// the expected output after every evaluation, on a worker (the engine's diagnoseOutput, which
// the protocol's diagnose request answers with too) (so an edit of the spec re-runs the diagnosis
// against the same actual output); the bar above the outputs says the counts, the shape
// mismatch and the diagnosis in words, the differing cells are marked, and hovering one says
// where its expected value comes from and, when the input's values are all distinct, where the
// actual value was read from.
#pragma once

#include "core/slice_diagnosis.h"
#include "core/tensor.h"

#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QPushButton;

namespace ss::ui {

class JobTracker;
class MainWindow;

class CompareMode : public QWidget
{
    Q_OBJECT
public:
    /// The bar above `window`'s outputs, hidden until an actual output is given.
    explicit CompareMode(MainWindow* window, QWidget* parent = nullptr);

    /// Asks for the actual output: a .npy file or values pasted as a nested list.
    void choose();
    /// Reads `path` (.npy) and compares with it; false (with why in `error`) if it does not
    /// read, and then whatever was compared before stays.
    bool compareWithFile(const QString& path, QString* error);
    /// Reads a nested list ("[[1, 2], [3, 4]]", NumPy's printed form without "array(") and
    /// compares with it; false (with why in `error`) if it does not read.
    bool compareWithText(const QString& text, QString* error);
    /// Compares with `actual` from now on; `label` names it in the bar.
    void compareWith(const Tensor& actual, const QString& label);
    /// Leaves compare mode: the marks and the bar go.
    void stop();

    bool isActive() const { return m_actual.has_value(); }
    /// The comparison is a lesson's own (its wrong output), made when the lesson opened.
    bool isLessons() const { return !m_lesson.isEmpty(); }
    /// No diagnosis is on its way.
    bool isSettled() const { return !m_pending; }
    /// The diagnosis of the result on show, null while none (or it failed).
    const Diagnosis* diagnosis() const { return m_diagnosis.get(); }
    /// What the bar says, as plain text (tests, the screen reader).
    QString summaryText() const;
    /// The lines a hover over output `output`'s element `flat` adds to its tooltip.
    QString elementNote(int output, std::int64_t flat) const;

signals:
    /// A diagnosis (or its failure) is on show.
    void diagnosed();
    void activeChanged(bool active);

private:
    void rediagnose();
    /// A lesson with a wrong output is on show: compare with it; another workspace after such
    /// a lesson leaves compare mode.
    void followLesson();
    void showDiagnosis(std::shared_ptr<const Diagnosis> diagnosis);
    void showFailure(const QString& message);
    void clearMarks();

    MainWindow* m_window;
    QLabel* m_title;
    QLabel* m_counts;
    QLabel* m_shape;
    QLabel* m_sentence;
    QPushButton* m_stop;
    std::optional<Tensor> m_actual;
    QString m_label;
    QString m_lesson;     ///< the lesson whose wrong output is compared, "" for the user's own
    QString m_seenLesson; ///< the lesson on show at the last result
    std::shared_ptr<const Diagnosis> m_diagnosis;
    Shape m_inputShape;    ///< of the result diagnosed
    Shape m_expectedShape; ///< of the result diagnosed
    /// The diagnosis runs on the workbench's shared pool, like every evaluation; a newer one
    /// (an edit, another actual output) drops what an older one had yet to deliver.
    JobTracker* m_jobs;
    bool m_pending = false;
};

} // namespace ss::ui
