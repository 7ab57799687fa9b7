exports.PostHog = class PostHog {};
