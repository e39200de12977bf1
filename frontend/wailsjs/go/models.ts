export namespace app {
	
	export class Rule {
	    action: string;
	    tool: string;
	    command: string;
	    domain?: string;
	
	    static createFrom(source: any = {}) {
	        return new Rule(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.tool = source["tool"];
	        this.command = source["command"];
	        this.domain = source["domain"];
	    }
	}
	export class CallCheck {
	    error: string;
	    action: string;
	    sensitive: boolean;
	    read_only: boolean;
	    why: string;
	    rule?: Rule;
	    suggest: string;
	    grant: string;
	
	    static createFrom(source: any = {}) {
	        return new CallCheck(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.error = source["error"];
	        this.action = source["action"];
	        this.sensitive = source["sensitive"];
	        this.read_only = source["read_only"];
	        this.why = source["why"];
	        this.rule = this.convertValues(source["rule"], Rule);
	        this.suggest = source["suggest"];
	        this.grant = source["grant"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class CommandView {
	    name: string;
	    kind: string;
	    path: string;
	    body: string;
	
	    static createFrom(source: any = {}) {
	        return new CommandView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.path = source["path"];
	        this.body = source["body"];
	    }
	}
	export class ConversationMeta {
	    id: string;
	    title: string;
	    created: string;
	    updated: string;
	    cost?: number;
	    cost_unknown?: number;
	
	    static createFrom(source: any = {}) {
	        return new ConversationMeta(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.created = source["created"];
	        this.updated = source["updated"];
	        this.cost = source["cost"];
	        this.cost_unknown = source["cost_unknown"];
	    }
	}
	export class DiagnosticsResult {
	    checks: string[];
	    problems: string[];
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new DiagnosticsResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.checks = source["checks"];
	        this.problems = source["problems"];
	        this.error = source["error"];
	    }
	}
	export class InstructionFile {
	    path: string;
	    content: string;
	    size: number;
	    truncated: boolean;
	
	    static createFrom(source: any = {}) {
	        return new InstructionFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.content = source["content"];
	        this.size = source["size"];
	        this.truncated = source["truncated"];
	    }
	}
	export class InstructionsView {
	    files: InstructionFile[];
	    user: string;
	    skills: skills.Catalog;
	    commands: skills.Command[];
	
	    static createFrom(source: any = {}) {
	        return new InstructionsView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.files = this.convertValues(source["files"], InstructionFile);
	        this.user = source["user"];
	        this.skills = this.convertValues(source["skills"], skills.Catalog);
	        this.commands = this.convertValues(source["commands"], skills.Command);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Job {
	    id: string;
	    command: string;
	    running: boolean;
	    started_at: string;
	    exit_code: number;
	    killed: boolean;
	    duration_ms: number;
	    bytes: number;
	    error: string;
	    hint: string;
	
	    static createFrom(source: any = {}) {
	        return new Job(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.command = source["command"];
	        this.running = source["running"];
	        this.started_at = source["started_at"];
	        this.exit_code = source["exit_code"];
	        this.killed = source["killed"];
	        this.duration_ms = source["duration_ms"];
	        this.bytes = source["bytes"];
	        this.error = source["error"];
	        this.hint = source["hint"];
	    }
	}
	export class JobOutput {
	    id: string;
	    command: string;
	    running: boolean;
	    started_at: string;
	    exit_code: number;
	    killed: boolean;
	    duration_ms: number;
	    bytes: number;
	    error: string;
	    hint: string;
	    output: string;
	    next: number;
	    dropped: number;
	
	    static createFrom(source: any = {}) {
	        return new JobOutput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.command = source["command"];
	        this.running = source["running"];
	        this.started_at = source["started_at"];
	        this.exit_code = source["exit_code"];
	        this.killed = source["killed"];
	        this.duration_ms = source["duration_ms"];
	        this.bytes = source["bytes"];
	        this.error = source["error"];
	        this.hint = source["hint"];
	        this.output = source["output"];
	        this.next = source["next"];
	        this.dropped = source["dropped"];
	    }
	}
	export class KeyStorage {
	    keyring: boolean;
	    name: string;
	    reason?: string;
	    problem?: string;
	
	    static createFrom(source: any = {}) {
	        return new KeyStorage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.keyring = source["keyring"];
	        this.name = source["name"];
	        this.reason = source["reason"];
	        this.problem = source["problem"];
	    }
	}
	export class LLMRequest {
	    provider: string;
	    url: string;
	    method: string;
	    headers: Record<string, string>;
	    body: string;
	
	    static createFrom(source: any = {}) {
	        return new LLMRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.url = source["url"];
	        this.method = source["method"];
	        this.headers = source["headers"];
	        this.body = source["body"];
	    }
	}
	export class ProjectWorktree {
	    name: string;
	    branch: string;
	    main: string;
	    main_name: string;
	
	    static createFrom(source: any = {}) {
	        return new ProjectWorktree(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.branch = source["branch"];
	        this.main = source["main"];
	        this.main_name = source["main_name"];
	    }
	}
	export class Project {
	    id: string;
	    root: string;
	    name: string;
	    cwd: string;
	    cwd_relative: string;
	    worktree?: ProjectWorktree;
	
	    static createFrom(source: any = {}) {
	        return new Project(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.root = source["root"];
	        this.name = source["name"];
	        this.cwd = source["cwd"];
	        this.cwd_relative = source["cwd_relative"];
	        this.worktree = this.convertValues(source["worktree"], ProjectWorktree);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchView {
	    budget_mib: number;
	    cached_mib: number;
	    index_ready: boolean;
	    index_files: number;
	    index_disk_mib: number;
	    changed: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.budget_mib = source["budget_mib"];
	        this.cached_mib = source["cached_mib"];
	        this.index_ready = source["index_ready"];
	        this.index_files = source["index_files"];
	        this.index_disk_mib = source["index_disk_mib"];
	        this.changed = source["changed"];
	    }
	}
	export class SandboxView {
	    active: boolean;
	    kind: string;
	    level: number;
	    network: boolean;
	    proxy?: string;
	    network_note?: string;
	    reason: string;
	    readable: string[];
	    writable: string[];
	
	    static createFrom(source: any = {}) {
	        return new SandboxView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.active = source["active"];
	        this.kind = source["kind"];
	        this.level = source["level"];
	        this.network = source["network"];
	        this.proxy = source["proxy"];
	        this.network_note = source["network_note"];
	        this.reason = source["reason"];
	        this.readable = source["readable"];
	        this.writable = source["writable"];
	    }
	}
	export class ProjectSettings {
	    root: string;
	    allowlist: string[];
	    default_allowlist: string[];
	    network: boolean;
	    network_mode: string;
	    network_hosts: string[];
	    default_hosts: string[];
	    writable: string[];
	    readable: string[];
	    unix_sockets: string[];
	    env_allow: string[];
	    auto_approve_edits: boolean;
	    snapshot_keep: number;
	    snapshot_max_age_days: number;
	    sandbox: SandboxView;
	    file: string;
	    search_memory_mib: number;
	    search: SearchView;
	
	    static createFrom(source: any = {}) {
	        return new ProjectSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.allowlist = source["allowlist"];
	        this.default_allowlist = source["default_allowlist"];
	        this.network = source["network"];
	        this.network_mode = source["network_mode"];
	        this.network_hosts = source["network_hosts"];
	        this.default_hosts = source["default_hosts"];
	        this.writable = source["writable"];
	        this.readable = source["readable"];
	        this.unix_sockets = source["unix_sockets"];
	        this.env_allow = source["env_allow"];
	        this.auto_approve_edits = source["auto_approve_edits"];
	        this.snapshot_keep = source["snapshot_keep"];
	        this.snapshot_max_age_days = source["snapshot_max_age_days"];
	        this.sandbox = this.convertValues(source["sandbox"], SandboxView);
	        this.file = source["file"];
	        this.search_memory_mib = source["search_memory_mib"];
	        this.search = this.convertValues(source["search"], SearchView);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProjectSettingsInput {
	    allowlist: string[];
	    network: boolean;
	    network_mode?: string;
	    network_hosts?: string[];
	    readable: string[];
	    unix_sockets: string[];
	    env_allow: string[];
	    auto_approve_edits: boolean;
	    snapshot_keep: number;
	    snapshot_max_age_days: number;
	    search_memory_mib: number;
	
	    static createFrom(source: any = {}) {
	        return new ProjectSettingsInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.allowlist = source["allowlist"];
	        this.network = source["network"];
	        this.network_mode = source["network_mode"];
	        this.network_hosts = source["network_hosts"];
	        this.readable = source["readable"];
	        this.unix_sockets = source["unix_sockets"];
	        this.env_allow = source["env_allow"];
	        this.auto_approve_edits = source["auto_approve_edits"];
	        this.snapshot_keep = source["snapshot_keep"];
	        this.snapshot_max_age_days = source["snapshot_max_age_days"];
	        this.search_memory_mib = source["search_memory_mib"];
	    }
	}
	
	export class ProviderInput {
	    id: string;
	    name: string;
	    kind: string;
	    base_url: string;
	    model: string;
	    api_key: string;
	    clear_key: boolean;
	    context_window: number;
	    price?: llm.Price;
	    effort: string;
	    text_only: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProviderInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.api_key = source["api_key"];
	        this.clear_key = source["clear_key"];
	        this.context_window = source["context_window"];
	        this.price = this.convertValues(source["price"], llm.Price);
	        this.effort = source["effort"];
	        this.text_only = source["text_only"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderView {
	    id: string;
	    name: string;
	    kind: string;
	    base_url: string;
	    model: string;
	    has_key: boolean;
	    key_source?: string;
	    context_window: number;
	    price?: llm.Price;
	    effort?: string;
	    text_only: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ProviderView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.kind = source["kind"];
	        this.base_url = source["base_url"];
	        this.model = source["model"];
	        this.has_key = source["has_key"];
	        this.key_source = source["key_source"];
	        this.context_window = source["context_window"];
	        this.price = this.convertValues(source["price"], llm.Price);
	        this.effort = source["effort"];
	        this.text_only = source["text_only"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProvidersView {
	    providers: ProviderView[];
	    active: string;
	
	    static createFrom(source: any = {}) {
	        return new ProvidersView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.providers = this.convertValues(source["providers"], ProviderView);
	        this.active = source["active"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class RecentProject {
	    path: string;
	    name: string;
	    opened_at: string;
	
	    static createFrom(source: any = {}) {
	        return new RecentProject(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.name = source["name"];
	        this.opened_at = source["opened_at"];
	    }
	}
	
	
	
	export class ToolSpec {
	    name: string;
	    title: string;
	    description: string;
	    input_schema: string;
	    read_only: boolean;
	    destructive: boolean;
	    idempotent: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.input_schema = source["input_schema"];
	        this.read_only = source["read_only"];
	        this.destructive = source["destructive"];
	        this.idempotent = source["idempotent"];
	    }
	}
	export class WatchStatus {
	    active: boolean;
	    watched: number;
	    degraded: boolean;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new WatchStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.active = source["active"];
	        this.watched = source["watched"];
	        this.degraded = source["degraded"];
	        this.reason = source["reason"];
	    }
	}
	export class WorktreeOpened {
	    worktree: worktree.Worktree;
	    project: Project;
	
	    static createFrom(source: any = {}) {
	        return new WorktreeOpened(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.worktree = this.convertValues(source["worktree"], worktree.Worktree);
	        this.project = this.convertValues(source["project"], Project);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace llm {
	
	export class Price {
	    input: number;
	    output: number;
	    cached_input?: number;
	
	    static createFrom(source: any = {}) {
	        return new Price(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.input = source["input"];
	        this.output = source["output"];
	        this.cached_input = source["cached_input"];
	    }
	}
	export class ProbeResult {
	    ok: boolean;
	    models: string[];
	    status?: number;
	    problem?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProbeResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.models = source["models"];
	        this.status = source["status"];
	        this.problem = source["problem"];
	    }
	}

}

export namespace mcpclient {
	
	export class RefusedHost {
	    host: string;
	    count: number;
	    // Go type: time
	    last: any;
	    reason: string;
	    allowable: boolean;
	
	    static createFrom(source: any = {}) {
	        return new RefusedHost(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.host = source["host"];
	        this.count = source["count"];
	        this.last = this.convertValues(source["last"], null);
	        this.reason = source["reason"];
	        this.allowable = source["allowable"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Status {
	    name: string;
	    state: string;
	    transport: string;
	    protocol?: string;
	    tools?: string[];
	    error?: string;
	    auth?: string;
	    stderr?: string;
	    sandbox?: sandbox.Info;
	    data_dir?: string;
	    refused_hosts?: RefusedHost[];
	    allowed_hosts?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Status(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.state = source["state"];
	        this.transport = source["transport"];
	        this.protocol = source["protocol"];
	        this.tools = source["tools"];
	        this.error = source["error"];
	        this.auth = source["auth"];
	        this.stderr = source["stderr"];
	        this.sandbox = this.convertValues(source["sandbox"], sandbox.Info);
	        this.data_dir = source["data_dir"];
	        this.refused_hosts = this.convertValues(source["refused_hosts"], RefusedHost);
	        this.allowed_hosts = source["allowed_hosts"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace repoinfo {
	
	export class Info {
	    branch: string;
	    status: string[];
	    more: number;
	    commits: string[];
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.branch = source["branch"];
	        this.status = source["status"];
	        this.more = source["more"];
	        this.commits = source["commits"];
	    }
	}

}

export namespace sandbox {
	
	export class Info {
	    active: boolean;
	    kind?: string;
	    level?: number;
	    readable?: string[];
	    writable?: string[];
	    network: boolean;
	    proxy?: string;
	    network_note?: string;
	    unix_sockets?: string[];
	    processes?: string;
	    protection?: string;
	    redacted?: string;
	    capabilities?: string;
	    reason?: string;
	
	    static createFrom(source: any = {}) {
	        return new Info(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.active = source["active"];
	        this.kind = source["kind"];
	        this.level = source["level"];
	        this.readable = source["readable"];
	        this.writable = source["writable"];
	        this.network = source["network"];
	        this.proxy = source["proxy"];
	        this.network_note = source["network_note"];
	        this.unix_sockets = source["unix_sockets"];
	        this.processes = source["processes"];
	        this.protection = source["protection"];
	        this.redacted = source["redacted"];
	        this.capabilities = source["capabilities"];
	        this.reason = source["reason"];
	    }
	}

}

export namespace skills {
	
	export class Problem {
	    path: string;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.reason = source["reason"];
	    }
	}
	export class Skill {
	    name: string;
	    description: string;
	    scope: string;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new Skill(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.scope = source["scope"];
	        this.path = source["path"];
	    }
	}
	export class Catalog {
	    skills: Skill[];
	    problems?: Problem[];
	
	    static createFrom(source: any = {}) {
	        return new Catalog(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.skills = this.convertValues(source["skills"], Skill);
	        this.problems = this.convertValues(source["problems"], Problem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Command {
	    name: string;
	    description: string;
	    argument_hint?: string;
	    scope: string;
	    path: string;
	
	    static createFrom(source: any = {}) {
	        return new Command(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.description = source["description"];
	        this.argument_hint = source["argument_hint"];
	        this.scope = source["scope"];
	        this.path = source["path"];
	    }
	}
	

}

export namespace worktree {
	
	export class Applied {
	    worktree: string;
	    snapshot?: string;
	    changed: string[];
	    same?: string[];
	    merged?: string[];
	
	    static createFrom(source: any = {}) {
	        return new Applied(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.worktree = source["worktree"];
	        this.snapshot = source["snapshot"];
	        this.changed = source["changed"];
	        this.same = source["same"];
	        this.merged = source["merged"];
	    }
	}
	export class SetupResult {
	    command: string[];
	    exit_code: number;
	    output?: string;
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new SetupResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.command = source["command"];
	        this.exit_code = source["exit_code"];
	        this.output = source["output"];
	        this.error = source["error"];
	    }
	}
	export class Worktree {
	    name: string;
	    branch: string;
	    path: string;
	    project: string;
	    base: string;
	    // Go type: time
	    created: any;
	    changed_files: number;
	    setup?: SetupResult;
	
	    static createFrom(source: any = {}) {
	        return new Worktree(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.branch = source["branch"];
	        this.path = source["path"];
	        this.project = source["project"];
	        this.base = source["base"];
	        this.created = this.convertValues(source["created"], null);
	        this.changed_files = source["changed_files"];
	        this.setup = this.convertValues(source["setup"], SetupResult);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

