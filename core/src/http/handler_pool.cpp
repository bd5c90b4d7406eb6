#include "http/handler_pool.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace loupe {

struct HandlerPool::Job {
    const std::function<void()>* work;
    bool done = false;
};

HandlerPool::HandlerPool(int threads, std::size_t stack_size) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, stack_size);
    for (int i = 0; i < threads; ++i) {
        pthread_t thread;
        const int error = pthread_create(&thread, &attributes, &HandlerPool::thread_main, this);
        if (error != 0) {
            pthread_attr_destroy(&attributes);
            stop();  // joins the threads already started
            throw std::runtime_error("cannot start HTTP handler thread: " +
                                     std::string(std::strerror(error)));
        }
        threads_.push_back(thread);
    }
    pthread_attr_destroy(&attributes);
}

HandlerPool::~HandlerPool() {
    stop();
}

void HandlerPool::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    job_queued_.notify_all();
    for (pthread_t thread : threads_) {
        pthread_join(thread, nullptr);
    }
    threads_.clear();
}

void HandlerPool::run(const std::function<void()>& work) {
    Job job{&work};
    std::unique_lock lock(mutex_);
    queue_.push_back(&job);
    job_queued_.notify_one();
    job_done_.wait(lock, [&] { return job.done; });
}

void* HandlerPool::thread_main(void* pool) {
    static_cast<HandlerPool*>(pool)->serve();
    return nullptr;
}

void HandlerPool::serve() {
    std::unique_lock lock(mutex_);
    while (true) {
        job_queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) {
            return;  // stopping, and nothing left to do
        }
        Job* job = queue_.front();
        queue_.pop_front();
        lock.unlock();
        (*job->work)();
        lock.lock();
        job->done = true;
        job_done_.notify_all();
    }
}

}  // namespace loupe
