// Which URLs are this site's own pages: the one rule both link handling (navigation.ts, in the
// first load) and the router (router.ts, loaded later) apply.

/** A page of this origin over http(s): not another site, nor a javascript:, data: or blob: URL. */
export const isOwn = (url: URL) => url.href.startsWith(location.origin + "/");
