//===- ProcessRanks.cpp - Ranks as worker processes, with state -----------===//

#include "paracc/runtime/ProcessRanks.h"

#include "paracc/runtime/ExitCodes.h"
#include "paracc/runtime/Interpreter.h"
#include "paracc/runtime/TensorProtoIO.h"
#include "paracc/runtime/WorkerProcesses.h"
#ifdef PARACC_HAVE_GLOO
#include "paracc/runtime/GlooCommunicator.h"
#endif

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <poll.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace paracc::rt;

std::string ProcessRanks::rankDir(int64_t rank) const {
  return dir_ + "/rank_" + std::to_string(rank);
}

static std::string tensorPath(const std::string &rankDir,
                              const std::string &what, size_t index) {
  return rankDir + "/" + what + "_" + std::to_string(index) + ".pb";
}

StatusOr<std::unique_ptr<ProcessRanks>>
ProcessRanks::create(std::shared_ptr<const Executable> exe, size_t function,
                     const std::string &workerBinary) {
#ifndef PARACC_HAVE_GLOO
  return errorf("this runtime was built without Gloo and cannot run ranks "
                "as processes");
#else
  const int64_t ranks = exe->mesh().numRanks();
  std::unique_ptr<ProcessRanks> group(new ProcessRanks(exe, function));
  auto folder = makeWorkerFolder(*exe, "paracc-ranks");
  if (!folder)
    return folder.status();
  group->dir_ = *folder;
  const std::string program = workerProgramPath(group->dir_);
  ::mkdir((group->dir_ + "/store").c_str(), 0700);
  for (int64_t r = 0; r < ranks; ++r) {
    ::mkdir(group->rankDir(r).c_str(), 0700);
    // One socket per worker: its stdin and stdout. (A socket, not pipes:
    // writing to a worker that died fails with EPIPE instead of raising
    // SIGPIPE here.)
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      return errorf("cannot connect to worker ", r, ": ", std::strerror(errno));
    WorkerStreams streams;
    streams.logPath = workerLogPath(group->dir_, size_t(r));
    streams.stdinFd = streams.stdoutFd = fds[1];
    auto pid = spawnWorker({workerBinary, program, "--serve", std::to_string(r),
                            "--serve-function", std::to_string(function),
                            "--worker-dir", group->dir_},
                           {}, streams);
    ::close(fds[1]);
    if (!pid) {
      ::close(fds[0]);
      return pid.status(); // the destructor stops the ones started
    }
    group->workers_.push_back({*pid, fds[0], ""});
  }
  std::vector<int64_t> all;
  for (int64_t r = 0; r < ranks; ++r)
    all.push_back(r);
  PARACC_RETURN_IF_ERROR(group->command(all, "start"));
  return group;
#endif
}

ProcessRanks::~ProcessRanks() {
  if (failure_) {
    // Asked to quit, the workers end by themselves; any that does not
    // within two seconds is killed.
    for (Worker &w : workers_) {
      static const char quit[] = "quit\n";
      (void)::send(w.fd, quit, sizeof(quit) - 1, MSG_NOSIGNAL);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (Worker &w : workers_) {
      while (w.pid > 0) {
        int wstatus;
        if (::waitpid(w.pid, &wstatus, WNOHANG) != 0)
          w.pid = -1;
        else if (std::chrono::steady_clock::now() > deadline)
          break;
        else
          ::usleep(1000);
      }
    }
  }
  stopAll();
  if (!dir_.empty())
    removeWorkerFolder(dir_);
}

void ProcessRanks::stopAll() const {
  for (Worker &w : workers_) {
    if (w.fd >= 0)
      ::close(w.fd);
    w.fd = -1;
    if (w.pid > 0) {
      ::kill(w.pid, SIGKILL);
      int wstatus;
      ::waitpid(w.pid, &wstatus, 0);
      w.pid = -1;
    }
  }
}

std::string ProcessRanks::describe() const {
  return std::to_string(workers_.size()) + " CPU rank(s) as processes";
}

namespace {
/// What one worker answered to a command.
struct Reply {
  bool done = false;
  bool ok = false;
  std::string text; // after "ok " or the error message
};
} // namespace

/// Parses a complete reply at the start of `buffer`, consuming it.
static bool takeReply(std::string &buffer, Reply &reply) {
  size_t eol = buffer.find('\n');
  if (eol == std::string::npos)
    return false;
  std::string line = buffer.substr(0, eol);
  if (line.rfind("error ", 0) == 0) {
    size_t length = std::strtoull(line.c_str() + 6, nullptr, 10);
    if (buffer.size() < eol + 1 + length)
      return false;
    reply = {true, false, buffer.substr(eol + 1, length)};
    buffer.erase(0, eol + 1 + length);
    return true;
  }
  reply = {true, line.rfind("ok", 0) == 0,
           line.size() > 3 ? line.substr(3) : std::string()};
  if (!reply.ok)
    reply.text = "malformed reply '" + line + "'";
  buffer.erase(0, eol + 1);
  return true;
}

Status ProcessRanks::command(const std::vector<int64_t> &ranks,
                             const std::string &command) const {
  if (!failure_)
    return failure_;
  std::vector<Reply> replies(workers_.size());
  // Failures in the order they were seen: the first is usually the cause.
  std::vector<std::string> failures;
  auto fail = [&](int64_t r, const std::string &why) {
    replies[r].done = true;
    std::string text = why;
    std::string log = workerLog(dir_, size_t(r));
    if (!log.empty() && text.find(log) == std::string::npos)
      text += "\n" + log;
    failures.push_back("worker rank " + std::to_string(r) + ": " + text);
  };
  const std::string line = command + "\n";
  for (int64_t r : ranks) {
    Worker &w = workers_[r];
    if (::send(w.fd, line.data(), line.size(), MSG_NOSIGNAL) !=
        ssize_t(line.size()))
      fail(r, "ended before '" + command + "'");
  }
  using Clock = std::chrono::steady_clock;
  auto deadline = Clock::time_point::max();
  for (;;) {
    std::vector<pollfd> fds;
    std::vector<int64_t> waiting;
    for (int64_t r : ranks)
      if (!replies[r].done) {
        fds.push_back({workers_[r].fd, POLLIN, 0});
        waiting.push_back(r);
      }
    if (waiting.empty())
      break;
    if (!failures.empty() && deadline == Clock::time_point::max())
      deadline = Clock::now() + std::chrono::seconds(1);
    int timeoutMs = -1;
    if (deadline != Clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - Clock::now())
                      .count();
      if (left <= 0)
        break; // the others are waiting for a failed peer
      timeoutMs = int(left);
    }
    int n = ::poll(fds.data(), fds.size(), timeoutMs);
    if (n < 0 && errno != EINTR)
      return failure_ =
                 errorf("waiting for the workers: ", std::strerror(errno));
    for (size_t i = 0; n > 0 && i < fds.size(); ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      int64_t r = waiting[i];
      Worker &w = workers_[r];
      char buf[4096];
      ssize_t got = ::recv(w.fd, buf, sizeof(buf), 0);
      if (got <= 0) {
        int wstatus = 0;
        std::string how = "ended";
        if (::waitpid(w.pid, &wstatus, 0) == w.pid) {
          w.pid = -1;
          if (WIFSIGNALED(wstatus))
            how = "was killed by signal " + std::to_string(WTERMSIG(wstatus));
          else if (WIFEXITED(wstatus))
            how = "exited with code " + std::to_string(WEXITSTATUS(wstatus));
        }
        fail(r, how + " during '" + command + "'");
        continue;
      }
      w.pending.append(buf, size_t(got));
      Reply reply;
      if (takeReply(w.pending, reply)) {
        if (reply.ok)
          replies[r] = reply;
        else
          fail(r, reply.text);
      }
    }
  }
  if (failures.empty())
    return Status::ok();
  std::string text = failures[0];
  if (failures.size() > 1) {
    text += "\n" + std::to_string(failures.size() - 1) +
            " other worker(s) failed after it:";
    for (size_t i = 1; i < failures.size(); ++i)
      text += "\n  " + failures[i];
  }
  stopAll();
  return failure_ = errorf(text);
}

Status ProcessRanks::runRanks(const std::vector<std::vector<Tensor>> &inputs,
                              std::vector<std::vector<Tensor>> &outputs) {
  const int64_t ranks = int64_t(workers_.size());
  std::vector<int64_t> all;
  for (int64_t r = 0; r < ranks; ++r) {
    all.push_back(r);
    for (size_t i = 0; i < inputs[r].size(); ++i)
      PARACC_RETURN_IF_ERROR(writeTensorProtoFile(
          tensorPath(rankDir(r), "input", i), inputs[r][i], ""));
  }
  PARACC_RETURN_IF_ERROR(command(
      all, "run " + std::to_string(inputs.empty() ? 0 : inputs[0].size())));
  outputs.assign(size_t(ranks), {});
  for (int64_t r = 0; r < ranks; ++r) {
    const FunctionInfo &f = exe_->functions()[exe_->rankFunction(function_, r)];
    for (size_t k = 0; k < f.outputs.size(); ++k) {
      auto t = readTensorProtoFile(tensorPath(rankDir(r), "output", k));
      if (!t)
        return t.status().withContext("worker rank " + std::to_string(r));
      outputs[r].push_back(std::move(t->tensor));
    }
  }
  return Status::ok();
}

StatusOr<Tensor> ProcessRanks::stateShard(int64_t rank, size_t index) const {
  if (rank < 0 || rank >= int64_t(workers_.size()))
    return errorf("no rank ", rank);
  PARACC_RETURN_IF_ERROR(command({rank}, "read " + std::to_string(index)));
  auto t = readTensorProtoFile(tensorPath(rankDir(rank), "state", 0));
  if (!t)
    return t.status();
  return std::move(t->tensor);
}

Status ProcessRanks::setStateShard(int64_t rank, size_t index, Tensor shard) {
  if (rank < 0 || rank >= int64_t(workers_.size()))
    return errorf("no rank ", rank);
  PARACC_RETURN_IF_ERROR(
      writeTensorProtoFile(tensorPath(rankDir(rank), "state", 0), shard, ""));
  return command({rank}, "write " + std::to_string(index));
}

//===----------------------------------------------------------------------===//
// The worker
//===----------------------------------------------------------------------===//

/// Parses "VERB N" into N; false when malformed.
static bool parseIndex(const std::string &line, size_t verbLength,
                       size_t &out) {
  if (line.size() <= verbLength + 1 || line[verbLength] != ' ')
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtoull(line.c_str() + verbLength + 1, &end, 10);
  return errno == 0 && end && *end == '\0';
}

int paracc::rt::serveRank(std::shared_ptr<const Executable> exe, int64_t rank,
                          size_t function, const std::string &dir,
                          std::istream &commands, std::ostream &replies) {
#ifndef PARACC_HAVE_GLOO
  replies << "error 31\nthis runtime was built without Gloo" << std::flush;
  return kExitError;
#else
  if (rank < 0 || rank >= exe->mesh().numRanks() ||
      function >= exe->functions().size()) {
    std::string m = "rank " + std::to_string(rank) + " or function " +
                    std::to_string(function) + " is not in the executable";
    replies << "error " << m.size() << "\n" << m << std::flush;
    return kExitError;
  }
#ifdef __linux__
  // A worker ends with the process that commands it, even one that was
  // killed while this worker waited inside a collective.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  auto world = GlooWorld::withFileStore(exe->mesh(), dir + "/store");
  auto comm = world->communicator(rank);
  RankExecutor executor(exe, rank, *comm, function);
  const Status prepared = executor.prepare();
  const std::string own = dir + "/rank_" + std::to_string(rank);
  std::string line;
  while (std::getline(commands, line)) {
    Status st;
    std::string answer;
    size_t n = 0;
    if (line == "quit") {
      return kExitOk;
    } else if (line == "start") {
      st = prepared;
    } else if (line.rfind("run", 0) == 0 && parseIndex(line, 3, n)) {
      std::vector<Tensor> inputs, outputs;
      for (size_t i = 0; st && i < n; ++i) {
        auto t = readTensorProtoFile(tensorPath(own, "input", i));
        if (t)
          inputs.push_back(std::move(t->tensor));
        else
          st = t.status();
      }
      if (st)
        st = executor.run(inputs, outputs);
      // Its peers may wait for it in a collective: tell them it stopped.
      if (!st)
        comm->abandon();
      for (size_t k = 0; st && k < outputs.size(); ++k)
        st = writeTensorProtoFile(tensorPath(own, "output", k), outputs[k], "");
      answer = std::to_string(outputs.size());
    } else if (line.rfind("read", 0) == 0 && parseIndex(line, 4, n)) {
      if (n >= executor.state().size() || !executor.state()[n].isValid())
        st = errorf("rank ", rank, " holds no state buffer ", n);
      else
        st = writeTensorProtoFile(tensorPath(own, "state", 0),
                                  executor.state()[n], "");
    } else if (line.rfind("write", 0) == 0 && parseIndex(line, 5, n)) {
      auto t = readTensorProtoFile(tensorPath(own, "state", 0));
      st = t ? executor.setState(n, std::move(t->tensor)) : t.status();
    } else {
      st = errorf("unknown command '", line, "'");
    }
    if (st) {
      replies << "ok" << (answer.empty() ? "" : " " + answer) << "\n";
    } else {
      const std::string &m = st.message();
      replies << "error " << m.size() << "\n" << m;
    }
    replies.flush();
    if (!replies)
      return kExitError; // the controller is gone
  }
  return kExitOk;
#endif
}
