export namespace app {
	
	export class Project {
	    root: string;
	    name: string;
	    cwd: string;
	    cwd_relative: string;
	
	    static createFrom(source: any = {}) {
	        return new Project(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.root = source["root"];
	        this.name = source["name"];
	        this.cwd = source["cwd"];
	        this.cwd_relative = source["cwd_relative"];
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

}

