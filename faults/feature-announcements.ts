// The faults of feature announcements (reference/resources/feature-announcements.ts).
import { fault } from "./fault.js";

const SUITES = ["feature-announcements"];

export const FEATURE_ANNOUNCEMENT_FAULTS = [
  fault("feature-announcement-sub-title-null", "FEAT-001", "Announcements answer sub_title as null.", SUITES),
  fault("feature-announcement-image-size-strings", "FEAT-002", "Avatar image height and width are answered as strings.", SUITES),
  fault("feature-announcement-writable", "FEAT-003", "PUT on an announcement changes its title and answers Id.", SUITES),
  fault(
    "feature-announcement-refused-put-applies",
    "FEAT-003",
    "PUT on an announcement is refused with 405, but its title is changed anyway.",
    SUITES,
  ),
  fault("feature-announcement-deletable", "FEAT-003", "DELETE on an announcement removes it.", SUITES),
  fault("feature-announcement-post-creates", "ERR-007", "POST /feature-announcement creates an announcement.", SUITES),
  fault("feature-announcement-other-user-readable", "AUTH-019", "GET serves another user's announcement.", SUITES),
  // Legal by default since the blind ruling made ERR-014 LENIENT (variant unknown-item-read-empty): strict only.
  fault(
    "feature-announcement-unknown-id-empty",
    "ERR-014",
    "GET of an id that does not exist answers 200 with an empty Response.",
    SUITES,
    {
      target: "reference-strict",
    },
  ),
  fault("feature-announcement-wrong-type-key", "ERR-015", "Announcements are answered under the type key Announcement.", SUITES),
] as const;
