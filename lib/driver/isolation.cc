// Crash isolation (docs/security.md, "Crash isolation").
//
// The parent stays single-threaded and lints nothing itself: it hands files to up to `jobs`
// forked worker processes over socket pairs, one file at a time each, and reads back each
// file's encoded FileReport (report_wire.cc). Before every phase the driver publishes what it
// is doing (loading, rule X, analysis Y, the summary) in a CrashRecord; a worker's record is a
// page shared with the parent, so when a worker dies (a signal, SIGKILL from the out-of-memory
// killer, an unexpected exit) the parent still knows the file, the phase and the rule, makes
// that the file's internal-error finding, and starts a new worker for the remaining files. A
// worker that has not answered within LintOptions::file_time_limit (a rule in an endless loop, a
// read that never returns) is killed with its process group and reported the same way, as
// timed out, so one hung file cannot stall the run.
// Processes rather than threads: a signal or a corrupted heap ends the whole process, and only
// an address space of its own contains it. Forked rather than spawned: the worker inherits the
// linter, its configuration and the registry (a library has no executable to spawn).
#include "driver/isolation.h"

#include <fmt/format.h>
#include <onnxlint/escape.h>
#include <onnxlint/registry.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#include "driver/timings.h"

namespace onnxlint {

namespace isolation {

namespace {

constinit thread_local CrashRecord t_own_record;
// In a worker: the page shared with the parent; elsewhere null (the thread's own record).
constinit thread_local CrashRecord* t_record = nullptr;

// Copies `text` into `out` (NUL-terminated), cut before `cap` at a UTF-8 character boundary.
void copy_cut(char* out, size_t cap, std::string_view text) {
  size_t n = std::min(text.size(), cap - 1);
  if (n < text.size()) {
    while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  }
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

// The class name of a mangled type name: "N8onnxlint10ProvenanceE" -> "Provenance" (the last
// component of a nested name; template arguments dropped). Anything else is kept as given.
std::string_view class_name(const char* mangled) {
  std::string_view s(mangled);
  if (s.empty()) return s;
  size_t pos = s.front() == 'N' ? 1 : 0;
  std::string_view last;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
    size_t len = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      len = len * 10 + static_cast<size_t>(s[pos++] - '0');
      if (len > s.size()) return s;
    }
    if (len > s.size() - pos) return s;
    last = s.substr(pos, len);
    pos += len;
  }
  return last.empty() ? s : last;
}

// Appends to a fixed buffer without allocating: the crash handler formats with it too.
class FixedText {
 public:
  FixedText(char* buf, size_t cap) : buf_(buf), cap_(cap) {}
  FixedText& operator<<(std::string_view s) {
    const size_t n = std::min(s.size(), cap_ - len_);
    std::memcpy(buf_ + len_, s.data(), n);
    len_ += n;
    return *this;
  }
  std::string_view view() const { return {buf_, len_}; }

 private:
  char* buf_;
  size_t cap_;
  size_t len_ = 0;
};

void format_phase(FixedText& out, Phase phase, std::string_view rule, std::string_view analysis) {
  switch (phase) {
    case Phase::Idle:
      out << "between files";
      return;
    case Phase::Loading:
      out << "loading the model";
      return;
    case Phase::Rule:
      if (rule.empty()) {
        out << "running a rule";
      } else {
        out << "running rule '" << rule << "'";
      }
      return;
    case Phase::Analysis:
      out << "computing the analysis '" << analysis << "'";
      if (!rule.empty()) out << " for rule '" << rule << "'";
      return;
    case Phase::Summary:
      out << "computing the model summary";
      return;
    case Phase::Findings:
      out << "sorting and filtering the findings";
      return;
    case Phase::Sending:
      out << "sending the report to the parent process";
      return;
  }
  out << "linting";
}

std::string_view analysis_of(const CrashRecord& r) {
  return {r.analysis, strnlen(r.analysis, sizeof r.analysis)};
}

// What a signal is, for messages: "SIGSEGV (segmentation fault)".
std::string_view signal_text(int sig) {
  switch (sig) {
    case SIGSEGV:
      return "SIGSEGV (segmentation fault)";
    case SIGBUS:
      return "SIGBUS (bus error)";
    case SIGFPE:
      return "SIGFPE (arithmetic exception)";
    case SIGILL:
      return "SIGILL (illegal instruction)";
    case SIGABRT:
      return "SIGABRT (abort)";
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

}  // namespace

void reset(CrashRecord& r) {
  r.phase.store(uint32_t(Phase::Idle), std::memory_order_relaxed);
  r.rule.store(nullptr, std::memory_order_relaxed);
  r.analysis[0] = '\0';
  r.file[0] = '\0';
}

CrashRecord& current_record() { return t_record != nullptr ? *t_record : t_own_record; }

void begin_file(std::string_view path) {
  CrashRecord& r = current_record();
  r.rule.store(nullptr, std::memory_order_relaxed);
  r.analysis[0] = '\0';
  // Printed by the crash handler as is: the path made visible here, where allocating is fine.
  copy_cut(r.file, sizeof r.file, is_visible(path) ? std::string(path) : visible(path));
  set_phase(r, Phase::Loading);
  test_crash_in_phase("@loading", path);
}

std::string describe_phase(Phase phase, const RuleInfo* rule, std::string_view analysis) {
  char buf[512];
  FixedText out(buf, sizeof buf);
  format_phase(out, phase, rule != nullptr ? std::string_view(rule->id) : "", analysis);
  return std::string(out.view());
}

std::string exception_text(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e) != nullptr) return "out of memory";
  return e.what();
}

FileReport failure_report(const std::string& path, std::string_view what, Phase phase,
                          const RuleInfo* rule, std::string_view analysis) {
  FileReport f;
  f.path = path;
  Diagnostic& d = f.diagnostics.emplace_back();
  d.rule_id = std::string(kInternalError);
  d.severity = Severity::Error;
  d.location.file = path;
  d.message = fmt::format("{} while {}; nothing else is reported for this file", what,
                          describe_phase(phase, rule, analysis));
  d.help = "please report this bug with the model (or a reduced copy)";
  if (rule != nullptr) {
    d.help += fmt::format("; `--ignore {}` lints the model without this rule meanwhile", rule->id);
  }
  return f;
}

namespace {

// Runs `lint` (a lint_file or lint_bytes call); an exception that escapes it becomes the
// file's internal-error report, naming the phase that the record holds.
template <class Lint>
FileReport guarded(const std::string& path, Lint&& lint) {
  std::string what;
  try {
    FileReport f = lint();
    enter_phase(current_record(), Phase::Idle);
    return f;
  } catch (const std::exception& e) {
    what = dynamic_cast<const std::bad_alloc*>(&e) != nullptr
               ? "onnx-lint ran out of memory"
               : fmt::format("onnx-lint failed ({})", e.what());
  } catch (...) {
    what = "onnx-lint failed (an unknown exception)";
  }
  const CrashRecord& r = current_record();
  FileReport f =
      failure_report(path, what, static_cast<Phase>(r.phase.load()), r.rule.load(), analysis_of(r));
  set_phase(current_record(), Phase::Idle);
  return f;
}

}  // namespace

FileReport lint_file_guarded(const Linter& linter, const std::string& path) {
  return guarded(path, [&] { return linter.lint_file(path); });
}

// ---------------------------------------------------------------------------------------------
// Worker processes.

namespace {

// Workers exit with this when something other than the lint failed (the report could not be
// encoded or sent): the parent reports it as such.
constexpr int kWorkerFailed = 70;

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool read_all(int fd, char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::read(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void put_u64(char* out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
uint64_t get_u64(const char* in) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t(static_cast<unsigned char>(in[i])) << (8 * i);
  return v;
}

// The child's life: read a job index, lint it, send the encoded report; until the parent closes
// the socket. Never returns into the caller's frames (a Python interpreter, a test runner).
[[noreturn]] void worker_main(int fd, CrashRecord* record, pid_t parent,
                              const std::function<FileReport(size_t)>& job) {
  // Dies with its parent (a killed onnx-lint must not leave workers behind).
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(0);
  // The default action for fatal signals: the parent reads the signal from the exit status (a
  // crash handler the program installed would turn it into an exit code).
  for (int sig : kFatalSignals) std::signal(sig, SIG_DFL);
  // A host's interrupt handler (Python's) must not keep a worker alive past Ctrl-C.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  sigset_t fatal;
  sigemptyset(&fatal);
  for (int sig : kFatalSignals) sigaddset(&fatal, sig);
  ::sigprocmask(SIG_UNBLOCK, &fatal, nullptr);
  t_record = record;
  try {
    for (;;) {
      char index[8];
      if (!read_all(fd, index, sizeof index)) ::_exit(0);
      FileReport report = job(get_u64(index));
      set_phase(*record, Phase::Sending);
      const std::string bytes = encode_file_report(report);
      char header[8];
      put_u64(header, bytes.size());
      if (!write_all(fd, header, sizeof header) || !write_all(fd, bytes.data(), bytes.size())) {
        ::_exit(0);  // the parent is gone
      }
      set_phase(*record, Phase::Idle);
    }
  } catch (...) {
    ::_exit(kWorkerFailed);
  }
}

using Clock = std::chrono::steady_clock;

struct Worker {
  pid_t pid = -1;
  int fd = -1;  // the parent's end of the socket pair
  CrashRecord* record = nullptr;
  std::optional<size_t> job;
  Clock::time_point deadline = Clock::time_point::max();  // of the current job
  std::string inbox;  // bytes of the current job's answer received so far
};

// SIGKILL to a worker and to every process it started: a worker leads its own process group
// (a child it forked would otherwise outlive a hung worker, holding its socket). Before the
// worker is reaped, so that its pid cannot name another process yet.
void kill_worker_group(pid_t pid) {
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);  // if it could not lead a group of its own
}

class WorkerPool {
 public:
  WorkerPool(size_t size, const std::function<FileReport(size_t)>& job) : job_(job) {
    // One shared page per worker slot, reused by the workers that replace a dead one.
    const size_t bytes = std::max<size_t>(size * sizeof(CrashRecord), 1);
    void* pages = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pages != MAP_FAILED) {
      pages_ = pages;
      pages_bytes_ = bytes;
      workers_.resize(size);
      for (size_t i = 0; i < size; ++i) {
        workers_[i].record = new (static_cast<CrashRecord*>(pages) + i) CrashRecord;
      }
    }
  }
  ~WorkerPool() {
    // A worker still busy (the caller is unwinding) is killed, not waited for.
    for (Worker& w : workers_) stop(w, /*kill=*/w.job.has_value());
    if (pages_ != nullptr) ::munmap(pages_, pages_bytes_);
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  std::vector<Worker>& workers() { return workers_; }

  // Starts a worker in slot `w`; false if the system refuses (no processes or descriptors left).
  bool start(Worker& w) {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return false;
    reset(*w.record);
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
      ::close(sv[0]);
      ::close(sv[1]);
      return false;
    }
    if (pid == 0) {
      // A process group of its own, so that a timeout kills whatever the worker started too.
      // Both sides set it: whichever runs first, the group exists before the parent kills it.
      ::setpgid(0, 0);
      ::close(sv[0]);
      for (const Worker& other : workers_) {
        if (other.fd >= 0) ::close(other.fd);
      }
      worker_main(sv[1], w.record, parent, job_);
    }
    ::close(sv[1]);
    ::setpgid(pid, pid);
    w.pid = pid;
    w.fd = sv[0];
    w.inbox.clear();
    return true;
  }

  // Ends a worker: closes its socket (an idle worker then exits) and reaps it. Returns its wait
  // status, or nullopt when it could not be read (the host reaps its children itself).
  std::optional<int> stop(Worker& w, bool kill = false) {
    if (w.fd >= 0) ::close(w.fd);
    w.fd = -1;
    if (w.pid < 0) return std::nullopt;
    if (kill) kill_worker_group(w.pid);
    int status = 0;
    pid_t got;
    do {
      got = ::waitpid(w.pid, &status, 0);
    } while (got < 0 && errno == EINTR);
    w.pid = -1;
    if (got < 0) return std::nullopt;
    return status;
  }

 private:
  const std::function<FileReport(size_t)>& job_;
  std::vector<Worker> workers_;
  void* pages_ = nullptr;
  size_t pages_bytes_ = 0;
};

// The rule a dead worker's record names, if it is one of the registry's (the record is the
// worker's memory: it is checked, never followed blindly).
const RuleInfo* known_rule(const RuleRegistry& registry, const RuleInfo* claimed) {
  if (claimed == nullptr) return nullptr;
  for (const RuleRegistry::Entry& e : registry.entries()) {
    if (e.info == claimed) return e.info;
  }
  return nullptr;
}

// The failure report of a worker's file, with the phase and rule of the worker's record (the
// worker's memory: bounded, and the rule checked against ours).
FileReport record_report(const std::string& path, std::string_view what, const CrashRecord& record,
                         const RuleRegistry& registry) {
  uint32_t phase = record.phase.load();
  if (phase > uint32_t(Phase::Sending)) phase = uint32_t(Phase::Idle);
  char analysis[CrashRecord::kNameBytes];
  std::memcpy(analysis, record.analysis, sizeof analysis);
  analysis[sizeof analysis - 1] = '\0';
  return failure_report(path, what, static_cast<Phase>(phase),
                        known_rule(registry, record.rule.load()), analysis);
}

// The report of a file whose worker ended before answering.
FileReport dead_worker_report(const std::string& path, const CrashRecord& record,
                              std::optional<int> status, const RuleRegistry& registry) {
  std::string what;
  if (!status) {
    what = "onnx-lint's worker process ended (its exit status is not available)";
  } else if (WIFSIGNALED(*status) && WTERMSIG(*status) == SIGKILL) {
    what =
        "onnx-lint's worker process was killed (SIGKILL, most likely by the kernel's "
        "out-of-memory killer)";
  } else if (WIFSIGNALED(*status)) {
    const int sig = WTERMSIG(*status);
    what = signal_text(sig) == "a signal"
               ? fmt::format("onnx-lint crashed (signal {})", sig)
               : fmt::format("onnx-lint crashed with {}", signal_text(sig));
  } else if (WIFEXITED(*status) && WEXITSTATUS(*status) == kWorkerFailed) {
    what = "onnx-lint's worker process failed";
  } else {
    what = fmt::format("onnx-lint's worker process exited unexpectedly (status {})",
                       WIFEXITED(*status) ? WEXITSTATUS(*status) : -1);
  }
  return record_report(path, what, record, registry);
}

// The report of a file whose worker did not answer within `limit` (and was killed): what its
// record says it was doing then.
FileReport timed_out_report(const std::string& path, std::chrono::milliseconds limit,
                            const CrashRecord& record, const RuleRegistry& registry) {
  FileReport f = record_report(
      path, fmt::format("onnx-lint timed out after {} s", seconds_text(limit)), record, registry);
  f.diagnostics.front().help +=
      "; if the model only needs longer, `--file-timeout SECONDS` raises the limit (0: none)";
  return f;
}

// When a job handed out now must be answered: never for no limit (zero or less) or one beyond a
// century (the clock's arithmetic must not overflow).
Clock::time_point deadline_after(std::chrono::milliseconds limit) {
  if (limit.count() <= 0 || limit > std::chrono::hours(24 * 365 * 100)) {
    return Clock::time_point::max();
  }
  return Clock::now() + limit;
}

}  // namespace

std::string seconds_text(std::chrono::milliseconds limit) {
  if (limit.count() % 1000 == 0) return fmt::format("{}", limit.count() / 1000);
  return fmt::format("{}", static_cast<double>(limit.count()) / 1000.0);
}

std::vector<FileReport> run_in_workers(size_t count, size_t workers,
                                       const std::function<FileReport(size_t)>& job,
                                       const std::function<std::string(size_t)>& path_of,
                                       const RuleRegistry& registry,
                                       std::chrono::milliseconds time_limit,
                                       const std::function<void(size_t, size_t)>& progress) {
  std::vector<FileReport> out(count);
  if (count == 0) return out;
  WorkerPool pool(std::clamp<size_t>(workers, 1, count), job);
  size_t next = 0, done = 0;
  auto finished = [&](size_t index, FileReport report) {
    out[index] = std::move(report);
    ++done;
    if (progress) progress(done, count);
  };
  // Without workers (no shared memory, no process left), jobs run here: the run completes,
  // without the protection.
  auto in_process = [&](size_t index) { finished(index, job(index)); };
  if (pool.workers().empty()) {
    while (next < count) in_process(next++);
    return out;
  }

  // Reads what the worker sent into its inbox (one read; `flags` MSG_DONTWAIT or 0); returns
  // the read's result (0: end of stream).
  auto receive = [](Worker& w, int flags) {
    char buf[1 << 16];
    ssize_t n;
    do {
      n = ::recv(w.fd, buf, sizeof buf, flags);
    } while (n < 0 && errno == EINTR);
    if (n > 0) w.inbox.append(buf, static_cast<size_t>(n));
    return n;
  };
  // Finishes the worker's job if its inbox holds the whole answer.
  auto take_answer = [&](Worker& w) {
    if (w.inbox.size() < 8) return false;
    const uint64_t size = get_u64(w.inbox.data());
    if (w.inbox.size() - 8 < size) return false;
    const size_t index = *w.job;
    w.job.reset();
    std::optional<FileReport> report;
    if (w.inbox.size() - 8 == size) {
      report = decode_file_report(std::string_view(w.inbox).substr(8));
    }
    w.inbox.clear();
    if (!report) {
      // More bytes than announced, or bytes that do not decode: the worker is not sane.
      pool.stop(w, /*kill=*/true);
      report = failure_report(path_of(index),
                              "onnx-lint could not read the report of its worker process",
                              Phase::Sending, nullptr, "");
    }
    finished(index, std::move(*report));
    return true;
  };

  while (done < count) {
    // Hand out jobs to the idle workers, starting a worker where the slot has none.
    for (Worker& w : pool.workers()) {
      while (!w.job && next < count) {
        if (w.pid < 0 && !pool.start(w)) {
          in_process(next++);
          continue;
        }
        char index[8];
        put_u64(index, next);
        if (!write_all(w.fd, index, sizeof index)) {
          pool.stop(w, /*kill=*/true);  // died while idle: a new one takes the job
          if (!pool.start(w)) {
            in_process(next++);
          }
          continue;
        }
        w.job = next++;
        w.deadline = deadline_after(time_limit);
      }
    }
    std::vector<pollfd> fds;
    std::vector<Worker*> busy;
    for (Worker& w : pool.workers()) {
      if (!w.job) continue;
      fds.push_back({w.fd, POLLIN, 0});
      busy.push_back(&w);
    }
    if (fds.empty()) continue;
    // A timeout, so that a worker whose end of the socket another process also holds (a host
    // that forked meanwhile) is still noticed when it dies: no end of stream would come; and
    // no later than the first deadline.
    Clock::time_point wake = Clock::now() + std::chrono::seconds(1);
    for (const Worker* w : busy) wake = std::min(wake, w->deadline);
    const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(wake - Clock::now());
    const int ready =
        ::poll(fds.data(), fds.size(), static_cast<int>(std::max<int64_t>(wait_ms.count(), 0)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      // Cannot wait on the workers: finish the remaining jobs here.
      for (Worker* w : busy) {
        pool.stop(*w, /*kill=*/true);
        in_process(*w->job);
        w->job.reset();
      }
      continue;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      Worker& w = *busy[i];
      if (ready == 0) {
        int status = 0;
        const pid_t got = ::waitpid(w.pid, &status, WNOHANG);
        // A host that ignores SIGCHLD has its children reaped for it: then ask whether it lives.
        const bool vanished = got < 0 && errno == ECHILD && ::kill(w.pid, 0) != 0;
        if (got != w.pid && !vanished) continue;
        // Dead without an end of stream: what it sent is all there is.
        w.pid = -1;
        receive(w, MSG_DONTWAIT);
        if (take_answer(w)) {
          pool.stop(w);
          continue;
        }
        const size_t index = *w.job;
        w.job.reset();
        pool.stop(w);
        finished(index, dead_worker_report(path_of(index), *w.record,
                                           vanished ? std::nullopt : std::optional<int>(status),
                                           registry));
        continue;
      }
      if (fds[i].revents == 0) continue;
      const ssize_t n = receive(w, 0);
      if (n > 0) {
        take_answer(w);
        continue;
      }
      // End of stream before the answer: the worker died with the job.
      const size_t index = *w.job;
      w.job.reset();
      const std::optional<int> status = pool.stop(w, /*kill=*/n < 0);
      finished(index, dead_worker_report(path_of(index), *w.record, status, registry));
    }
    // Workers past their deadline: an answer that arrived meanwhile still counts; otherwise the
    // worker (hung in an endless loop or a read) is killed with its group and replaced.
    const Clock::time_point now = Clock::now();
    for (Worker* w : busy) {
      if (!w->job || w->pid < 0 || now < w->deadline) continue;
      while (receive(*w, MSG_DONTWAIT) > 0) {
      }
      if (take_answer(*w)) continue;
      const size_t index = *w->job;
      w->job.reset();
      pool.stop(*w, /*kill=*/true);
      // Read after the kill: the record no longer changes.
      finished(index, timed_out_report(path_of(index), time_limit, *w->record, registry));
    }
  }
  return out;
}

Report lint_inputs_isolated(const Linter& linter, const std::vector<InputPath>& inputs,
                            const std::function<void(size_t, size_t)>& progress) {
  Report report;
  report.files.resize(inputs.size());
  std::vector<size_t> models;  // indices of the inputs to lint
  size_t done = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].error.empty()) {
      models.push_back(i);
      continue;
    }
    FileReport& f = report.files[i];
    f.path = inputs[i].path;
    f.status = FileReport::Status::PathError;
    f.error = inputs[i].error;
    ++done;
    if (progress) progress(done, inputs.size());
  }
  std::vector<FileReport> linted = run_in_workers(
      models.size(), static_cast<size_t>(linter.options().jobs),
      [&](size_t k) { return lint_file_guarded(linter, inputs[models[k]].path); },
      [&](size_t k) { return inputs[models[k]].path; }, linter.registry(),
      linter.options().file_time_limit,
      [&](size_t d, size_t) {
        if (progress) progress(done + d, inputs.size());
      });
  for (size_t k = 0; k < models.size(); ++k) report.files[models[k]] = std::move(linted[k]);
  return report;
}

// ---------------------------------------------------------------------------------------------
// The test-only crash switch.

namespace {

// Recursion the optimizer cannot flatten: each frame keeps a buffer it reads after the call,
// and the depth limit is unknown to the compiler (it is never reached).
volatile int g_overflow_limit = INT32_MAX;
[[gnu::noinline]] int overflow_stack(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  const int below = depth < g_overflow_limit ? overflow_stack(depth + 1) : 0;
  return below + frame[0];
}

// An endless busy loop the optimizer must keep (the empty volatile asm is a side effect).
[[noreturn]] void spin_forever() {
  for (;;) asm volatile("");
}

// Not instrumented: a sanitizer would report the crash its own way (and exit 1) instead of
// letting the signal happen, and the tests ask for the signal.
// (__attribute__ spelling: GCC and clang both take it; clang ignores gnu::no_sanitize.)
[[noreturn]] __attribute__((no_sanitize("address", "undefined"))) void crash_as(
    std::string_view how) {
  if (how == "segv") {
    volatile uintptr_t address = 8;  // not null as far as the compiler knows
    *reinterpret_cast<volatile int*>(address) = 1;
  } else if (how == "bus") {
    ::raise(SIGBUS);
  } else if (how == "fpe") {
    volatile int zero = 0;
    volatile int quotient = 1 / zero;
    (void)quotient;
    ::raise(SIGFPE);  // if the division did not trap
  } else if (how == "ill") {
    __builtin_trap();
  } else if (how == "kill") {
    ::raise(SIGKILL);
  } else if (how == "stack") {
    overflow_stack(0);
  } else if (how == "oom") {
    // Untouched blocks of doubling size until operator new fails (the address-space limit,
    // overcommit, or the address space itself): memory is reserved, never used.
    std::vector<std::unique_ptr<char[]>> blocks;
    for (size_t size = size_t(64) << 20;; size = size < (size_t(1) << 50) ? size * 2 : size) {
      blocks.emplace_back(new char[size]);
    }
  } else if (how == "orphan") {
    // SIGSEGV, after starting a process that keeps the worker's socket open for 20 s (as a
    // host that forks meanwhile would): the parent must notice the death without an end of
    // stream.
    if (::fork() == 0) {
      ::sleep(20);
      ::_exit(0);
    }
    ::raise(SIGSEGV);
  } else if (how == "throw") {
    throw std::runtime_error("test crash requested by " + std::string(kTestCrashVariable));
  } else if (how == "hang") {
    // A rule in an endless loop: no signal, no end; only the time limit stops it.
    spin_forever();
  } else if (how == "stuck") {
    // A read that never returns: from a pipe whose write end this process holds and never
    // writes to.
    int ends[2];
    if (::pipe(ends) == 0) {
      for (char c;;) {
        if (::read(ends[0], &c, 1) < 0 && errno != EINTR) break;
      }
    }
  } else if (how == "hang-fork") {
    // Starts a process that sleeps forever (named, so that a test can look for it), then hangs:
    // the time limit must end both.
    if (::fork() == 0) {
      ::prctl(PR_SET_NAME, "onnxlint-hang");
      // Not the test runner's output pipes (they would stay open if it survived); the worker's
      // socket stays held, as by any process a worker started.
      for (int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) ::close(fd);
      for (;;) ::pause();
    }
    spin_forever();
  }
  std::abort();
}

// Crashes on its first callback when `path_part` is in the model's path.
class CrashingRule final : public Rule {
 public:
  CrashingRule(std::unique_ptr<Rule> inner, std::string how, std::string path_part)
      : inner_(std::move(inner)), how_(std::move(how)), path_part_(std::move(path_part)) {}
  const RuleInfo& info() const override { return inner_->info(); }
  void on_model(const Model& m, RuleContext& c) override {
    if (m.path().find(path_part_) != std::string::npos) crash_as(how_);
    inner_->on_model(m, c);
  }
  void on_graph(const Graph& g, RuleContext& c) override { inner_->on_graph(g, c); }
  void on_node(const Node& n, RuleContext& c) override { inner_->on_node(n, c); }
  bool wants_op(const OpKind& op, RuleContext& ctx) const override {
    return inner_->wants_op(op, ctx);
  }
  void on_function(const Function& f, RuleContext& c) override { inner_->on_function(f, c); }
  void on_model_end(const Model& m, RuleContext& c) override { inner_->on_model_end(m, c); }

 private:
  std::unique_ptr<Rule> inner_;
  std::string how_;
  std::string path_part_;
};

// ONNXLINT_TEST_CRASH_RULE parsed: <target>[:<how>[:<path-part>]], where the target is a rule
// id, "@loading" or "@summary".
struct TestCrash {
  std::string target;
  std::string how = "abort";
  std::string path_part;
};

std::optional<TestCrash> test_crash_setting() {
  const char* setting = std::getenv(kTestCrashVariable);
  if (setting == nullptr || *setting == '\0') return std::nullopt;
  std::string_view s(setting);
  TestCrash out;
  const size_t colon = s.find(':');
  out.target = std::string(s.substr(0, colon));
  if (colon != std::string_view::npos) {
    std::string_view rest = s.substr(colon + 1);
    const size_t second = rest.find(':');
    if (!rest.substr(0, second).empty()) out.how = std::string(rest.substr(0, second));
    if (second != std::string_view::npos) out.path_part = std::string(rest.substr(second + 1));
  }
  return out;
}

}  // namespace

void test_crash_in_phase(std::string_view phase, std::string_view path) {
  const std::optional<TestCrash> crash = test_crash_setting();
  if (crash && crash->target == phase && path.find(crash->path_part) != std::string_view::npos) {
    crash_as(crash->how);
  }
}

std::unique_ptr<Rule> wrap_for_test_crash(std::unique_ptr<Rule> rule) {
  if (!rule) return rule;
  std::optional<TestCrash> crash = test_crash_setting();
  if (!crash || crash->target != rule->info().id) return rule;
  return std::make_unique<CrashingRule>(std::move(rule), std::move(crash->how),
                                        std::move(crash->path_part));
}

void enter_phase(CrashRecord& r, Phase p) {
  r.rule.store(nullptr, std::memory_order_relaxed);
  set_phase(r, p);
  if (p == Phase::Summary) test_crash_in_phase("@summary", r.file);
}

}  // namespace isolation

// ---------------------------------------------------------------------------------------------
// Public entry points.

AnalysisScope::AnalysisScope(const char* type_name) {
  isolation::CrashRecord& r = isolation::current_record();
  previous_phase_ = r.phase.load(std::memory_order_relaxed);
  std::memcpy(previous_, r.analysis, sizeof previous_);
  isolation::copy_cut(r.analysis, sizeof r.analysis, isolation::class_name(type_name));
  isolation::set_phase(r, isolation::Phase::Analysis);
  if (timing::Collector* timer = timing::current()) {
    timer->push(timer->entry(TimingEntry::Kind::Analysis, isolation::class_name(type_name)));
    timed_ = true;
  }
}

AnalysisScope::~AnalysisScope() {
  if (timed_) {
    if (timing::Collector* timer = timing::current()) timer->pop();
  }
  isolation::CrashRecord& r = isolation::current_record();
  std::memcpy(r.analysis, previous_, sizeof previous_);
  r.phase.store(previous_phase_, std::memory_order_relaxed);
}

std::optional<std::chrono::milliseconds> file_time_limit_from_seconds(double seconds) {
  if (!(seconds >= 0 && seconds <= 1e7)) return std::nullopt;  // NaN fails both
  if (seconds == 0) return std::chrono::milliseconds(0);
  return std::chrono::milliseconds(std::max<int64_t>(1, std::llround(seconds * 1000.0)));
}

FileReport lint_bytes_isolated(const Linter& linter, const std::string& name,
                               std::string_view bytes, std::optional<std::string> directory) {
  auto job = [&](size_t) {
    return isolation::guarded(name, [&] { return linter.lint_bytes(name, bytes, directory); });
  };
  std::vector<FileReport> out =
      isolation::run_in_workers(1, 1, job, [&](size_t) { return name; }, linter.registry(),
                                linter.options().file_time_limit, {});
  return std::move(out.front());
}

namespace {

constexpr size_t kSignalStackBytes = 256 * 1024;
std::atomic<bool> g_crash_handler_installed{false};

// Makes `stack` the calling thread's signal stack; false if it could not be.
bool use_signal_stack(void* stack) {
  stack_t ss{};
  ss.ss_sp = stack;
  ss.ss_size = kSignalStackBytes;
  return ::sigaltstack(&ss, nullptr) == 0;
}

void* map_signal_stack() {
  void* stack = ::mmap(nullptr, kSignalStackBytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return stack == MAP_FAILED ? nullptr : stack;
}

// The handler of install_crash_handler(): only async-signal-safe calls (write, _exit) and reads
// of the thread's record.
void on_fatal_signal(int sig) {
  char buf[2048];
  isolation::FixedText out(buf, sizeof buf);
  const isolation::CrashRecord& r = isolation::current_record();
  uint32_t phase = r.phase.load(std::memory_order_relaxed);
  if (phase > uint32_t(isolation::Phase::Sending)) phase = uint32_t(isolation::Phase::Idle);
  out << "onnx-lint: internal error";
  const std::string_view file(r.file, strnlen(r.file, sizeof r.file));
  if (phase == uint32_t(isolation::Phase::Loading)) {
    out << " while loading " << file;
  } else if (phase != uint32_t(isolation::Phase::Idle)) {
    const RuleInfo* rule = r.rule.load(std::memory_order_relaxed);
    out << " while ";
    isolation::format_phase(out, static_cast<isolation::Phase>(phase),
                            rule != nullptr ? std::string_view(rule->id) : "",
                            isolation::analysis_of(r));
    if (!file.empty()) out << " on " << file;
  }
  out << ": " << isolation::signal_text(sig) << "\n";
  const std::string_view text = out.view();
  [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
  ::_exit(kExitCrash);
}

}  // namespace

namespace isolation {

ThreadSignalStack::ThreadSignalStack() {
  if (!g_crash_handler_installed.load()) return;
  stack_ = map_signal_stack();
  if (stack_ != nullptr && !use_signal_stack(stack_)) {
    ::munmap(stack_, kSignalStackBytes);
    stack_ = nullptr;
  }
}

ThreadSignalStack::~ThreadSignalStack() {
  if (stack_ == nullptr) return;
  stack_t off{};
  off.ss_flags = SS_DISABLE;
  ::sigaltstack(&off, nullptr);
  ::munmap(stack_, kSignalStackBytes);
}

}  // namespace isolation

void install_crash_handler() {
  // An alternate stack (kept for the life of the process), so that a stack overflow still runs
  // the handler.
  if (void* stack = map_signal_stack(); stack != nullptr && !use_signal_stack(stack)) {
    ::munmap(stack, kSignalStackBytes);
  }
  g_crash_handler_installed.store(true);
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  // A second fault inside the handler ends the process by the signal rather than looping.
  action.sa_flags = SA_ONSTACK | SA_RESETHAND;
  for (int sig : isolation::kFatalSignals) ::sigaction(sig, &action, nullptr);
}

}  // namespace onnxlint
