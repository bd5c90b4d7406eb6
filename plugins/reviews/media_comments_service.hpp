#pragma once
// reviews.MediaComments: comment threads on the media plugin's media, with the same routes as
// a build's or a test's comments.

#include "comment_place.hpp"
#include "loupe/reviews/media_comments.hpp"
#include "review_recorder.hpp"

namespace loupe::reviews {

class MediaCommentsService final : public MediaComments {
public:
    MediaCommentsService(builds::BuildsService& builds, ReviewRecorder& recorder)
        : builds_(builds), recorder_(recorder) {}
    void add_media_place(Host& host, MediaCommentPlace place) override;
    int64_t delete_media_comments(soci::session& session, int64_t media_id) override;

private:
    builds::BuildsService& builds_;
    ReviewRecorder& recorder_;
};

}  // namespace loupe::reviews
